import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The journal and lock files of an open disk cache, and how much of the journal this process
/// has applied to its index.
///
/// Every change to the journal happens between ``lock()`` and ``unlock()``: `flock` keeps other
/// processes out, and ``changes()`` then brings in what they appended (or notices that one of
/// them replaced the journal by compacting it) before this process appends.
struct DiskCacheJournal: Sendable {
    /// What other processes did to the journal since this one last read it.
    enum Change {
        case unchanged
        /// Records appended after ``knownLength``.
        case appended([UInt8])
        /// The journal is another file now (compacted, or re-created after its folder was
        /// deleted) or shorter than known: its whole contents, header included.
        case replaced([UInt8])
    }

    let layout: DiskCacheLayout
    let fileSystem: DiskCacheFileSystem
    private var lockDescriptor: Int32 = -1
    private var journalDescriptor: Int32 = -1
    private var journalFile: FileIdentity?
    /// Whether the journal could be opened for writing (a read-only folder serves reads only).
    private(set) var isWritable = false
    /// The bytes of the journal, header included, that the index reflects; appends go here.
    var knownLength = 0

    init(layout: DiskCacheLayout, fileSystem: DiskCacheFileSystem) {
        self.layout = layout
        self.fileSystem = fileSystem
    }

    /// Takes the lock file's exclusive lock, (re-)creating the folder and the lock file when they
    /// were deleted.
    mutating func lock() throws(DiskCacheFileFailure) {
        var lastFailure = DiskCacheFileFailure(action: "lock", path: layout.lockPath, code: ENOENT)
        for _ in 0..<4 {
            if lockDescriptor < 0 {
                fileSystem.makeDirectory(layout.directory)
                var descriptor = fileSystem.openFile(layout.lockPath, O_RDWR | O_CREAT)
                if descriptor == -EACCES || descriptor == -EROFS {
                    descriptor = fileSystem.openFile(layout.lockPath, O_RDONLY)
                }
                guard descriptor >= 0 else {
                    throw DiskCacheFileFailure(action: "open", path: layout.lockPath, code: -descriptor)
                }
                lockDescriptor = descriptor
            }
            while flock(lockDescriptor, LOCK_EX) != 0 {
                guard errno == EINTR else {
                    throw DiskCacheFileFailure(action: "lock", path: layout.lockPath, code: errno)
                }
            }
            // The lock only excludes processes that lock the same file: after the folder was
            // deleted, a lock on the old, unlinked file would exclude nobody.
            let held = fileSystem.identity(of: lockDescriptor)
            if held != nil, held == fileSystem.identity(ofPath: layout.lockPath) { return }
            lastFailure = DiskCacheFileFailure(action: "lock", path: layout.lockPath, code: ENOENT)
            close(lockDescriptor)
            lockDescriptor = -1
        }
        throw lastFailure
    }

    /// Releases the lock of ``lock()``.
    func unlock() {
        if lockDescriptor >= 0 { flock(lockDescriptor, LOCK_UN) }
    }

    /// What changed in the journal since ``knownLength``; call it holding the lock. Opens (and
    /// creates, with its header) the journal the first time and whenever its path names another
    /// file.
    mutating func changes() throws(DiskCacheFileFailure) -> Change {
        let current = fileSystem.identity(ofPath: layout.journalPath)
        guard journalDescriptor >= 0, let current, current == journalFile else {
            return .replaced(try reopen())
        }
        guard let size = fileSystem.size(of: journalDescriptor) else {
            throw DiskCacheFileFailure(action: "stat", path: layout.journalPath, code: errno)
        }
        if size == knownLength { return .unchanged }
        if size < knownLength || knownLength < DiskCacheJournalFormat.headerSize {
            return .replaced(try fileSystem.read(journalDescriptor, count: size, at: 0, path: layout.journalPath))
        }
        let tail = try fileSystem.read(
            journalDescriptor, count: size - knownLength, at: knownLength, path: layout.journalPath)
        return .appended(tail)
    }

    /// Opens the journal afresh (creating the folders and an empty journal when missing) and
    /// returns its contents.
    private mutating func reopen() throws(DiskCacheFileFailure) -> [UInt8] {
        if journalDescriptor >= 0 { close(journalDescriptor) }
        journalDescriptor = -1
        journalFile = nil
        knownLength = 0
        for folder in [layout.directory, layout.bodiesFolder, layout.temporaryFolder] {
            fileSystem.makeDirectory(folder)
        }
        var descriptor = fileSystem.openFile(layout.journalPath, O_RDWR | O_CREAT)
        isWritable = descriptor >= 0
        if descriptor == -EACCES || descriptor == -EROFS {
            descriptor = fileSystem.openFile(layout.journalPath, O_RDONLY)
        }
        guard descriptor >= 0 else {
            throw DiskCacheFileFailure(action: "open", path: layout.journalPath, code: -descriptor)
        }
        journalDescriptor = descriptor
        journalFile = fileSystem.identity(of: descriptor)
        guard let size = fileSystem.size(of: descriptor) else {
            throw DiskCacheFileFailure(action: "stat", path: layout.journalPath, code: errno)
        }
        if size == 0 && isWritable {
            let header = DiskCacheJournalFormat.header
            try fileSystem.writeAll(descriptor, contentsOf: header, at: 0, path: layout.journalPath)
            return header
        }
        return try fileSystem.read(descriptor, count: size, at: 0, path: layout.journalPath)
    }

    /// Appends `bytes` at ``knownLength``. On failure the journal is cut back to where it was,
    /// so no torn record stays in front of later ones.
    mutating func append(_ bytes: [UInt8]) throws(DiskCacheFileFailure) {
        guard isWritable else { throw DiskCacheFileFailure(action: "write", path: layout.journalPath, code: EACCES) }
        do throws(DiskCacheFileFailure) {
            try fileSystem.writeAll(journalDescriptor, contentsOf: bytes, at: knownLength, path: layout.journalPath)
        } catch {
            ftruncate(journalDescriptor, off_t(knownLength))
            throw error
        }
        knownLength += bytes.count
    }

    /// Cuts the journal to `length` bytes, dropping a damaged tail so that later appends follow
    /// the last valid record; best effort (a read-only journal keeps its tail, which readers
    /// ignore anyway).
    mutating func truncate(to length: Int) {
        if isWritable { ftruncate(journalDescriptor, off_t(length)) }
        knownLength = length
    }

    /// Replaces the journal with `contents` atomically: written to a temporary file, flushed to
    /// stable storage, renamed over the journal.
    ///
    /// The only `fsync`s of the cache: a rename can reach the disk before the renamed file's
    /// data, and a journal lost that way would lose every entry at once.
    mutating func replace(with contents: [UInt8]) throws(DiskCacheFileFailure) {
        let temporaryPath = layout.temporaryPath(suffix: "journal")
        let descriptor = fileSystem.openFile(temporaryPath, O_RDWR | O_CREAT | O_EXCL)
        guard descriptor >= 0 else {
            throw DiskCacheFileFailure(action: "create", path: temporaryPath, code: -descriptor)
        }
        do throws(DiskCacheFileFailure) {
            try fileSystem.writeAll(descriptor, contentsOf: contents, at: 0, path: temporaryPath)
            guard fsync(descriptor) == 0 else {
                throw DiskCacheFileFailure(action: "fsync", path: temporaryPath, code: errno)
            }
            guard rename(temporaryPath, layout.journalPath) == 0 else {
                throw DiskCacheFileFailure(action: "rename", path: temporaryPath, code: errno)
            }
        } catch {
            close(descriptor)
            unlink(temporaryPath)
            throw error
        }
        fileSystem.synchronizeDirectory(layout.directory)
        if journalDescriptor >= 0 { close(journalDescriptor) }
        journalDescriptor = descriptor
        journalFile = fileSystem.identity(of: descriptor)
        isWritable = true
        knownLength = contents.count
    }

    /// Closes the files; the journal is not used afterwards.
    mutating func closeFiles() {
        if journalDescriptor >= 0 { close(journalDescriptor) }
        if lockDescriptor >= 0 { close(lockDescriptor) }
        journalDescriptor = -1
        lockDescriptor = -1
    }
}

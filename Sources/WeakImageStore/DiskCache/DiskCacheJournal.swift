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
/// Every change to the journal happens between ``lock(waitingUpTo:)`` and ``unlock()``: `flock`
/// keeps other processes out, and ``changes()`` then brings in what they appended (or notices
/// that one of them replaced the journal by compacting it) before this process appends. Both files
/// are opened relative to the cache's folder without following a symbolic link; a link or another
/// user's file in their place is deleted and made again.
struct DiskCacheJournal: Sendable {
    /// What other processes did to the journal since this one last read it.
    enum Change {
        case unchanged
        /// Records appended after ``knownLength``.
        case appended([UInt8])
        /// The journal is another file now (compacted, or re-created after its folder was
        /// deleted) or shorter than known: its whole contents, header included — or its first
        /// ``maximumLength`` bytes when it is longer (`isCut`), which no honest journal is.
        case replaced([UInt8], isCut: Bool)
    }

    let folders: DiskCacheFolders
    /// The most bytes of the journal ever read: a cache within its size limit never writes a
    /// longer one, and a longer one (a sparse file of a terabyte, say) must not be read whole.
    let maximumLength: Int
    private var lockDescriptor: Int32 = -1
    /// The folder the lock file was opened in.
    private var lockFolder: OpenDirectory?
    private var journalDescriptor: Int32 = -1
    private var journalFile: FileIdentity?
    /// The folder the journal was opened in.
    private var journalFolder: OpenDirectory?
    /// Whether the journal could be opened for writing (a read-only folder serves reads only).
    private(set) var isWritable = false
    /// The bytes of the journal, header included, that the index reflects; appends go here.
    var knownLength = 0

    var layout: DiskCacheLayout { folders.layout }
    var fileSystem: DiskCacheFileSystem { folders.fileSystem }

    /// - Parameter sizeLimit: The cache's size limit, which bounds ``maximumLength``.
    init(folders: DiskCacheFolders, sizeLimit: Int) {
        self.folders = folders
        maximumLength = Self.maximumLength(sizeLimit: sizeLimit)
    }

    /// The longest journal a cache with `sizeLimit` reads: the limit itself (the journal counts
    /// against it), but at least 1 MiB, so that a tiny limit never cuts an honest journal, and at
    /// most 64 MiB (about a million entries).
    static func maximumLength(sizeLimit: Int) -> Int {
        min(max(sizeLimit, 1 << 20), 64 << 20)
    }

    /// Takes the lock file's exclusive lock, (re-)creating the folder and the lock file when they
    /// were deleted, trying again every few milliseconds while another process holds it.
    ///
    /// - Parameter timeout: How long to wait for another process's lock, in seconds.
    /// - Throws: ``DiskCacheFileFailure`` with ``DiskCacheFileFailure/isLockHeldElsewhere`` when
    ///   the lock was still held after `timeout`.
    mutating func lock(waitingUpTo timeout: Double) throws(DiskCacheFileFailure) {
        let deadline = DispatchTime.now().uptimeNanoseconds + UInt64(max(0, timeout) * 1e9)
        var lastFailure = DiskCacheFileFailure(action: "lock", path: layout.lockPath, code: ENOENT)
        for _ in 0..<4 {
            let root: OpenDirectory
            do {
                root = try folders.refreshed()
            } catch {
                throw error.failure(action: "open", path: layout.directory)
            }
            if lockDescriptor >= 0, lockFolder !== root { closeLock() }
            if lockDescriptor < 0 {
                var descriptor = openOwnFile("lock", in: root, O_RDWR | O_CREAT)
                if descriptor == -EACCES || descriptor == -EROFS {
                    descriptor = openOwnFile("lock", in: root, O_RDONLY)
                }
                guard descriptor >= 0 else {
                    throw DiskCacheFileFailure(action: "open", path: layout.lockPath, code: -descriptor)
                }
                lockDescriptor = descriptor
                lockFolder = root
            }
            try waitForLock(until: deadline)
            // The lock only excludes processes that lock the same file: after the folder was
            // deleted, a lock on the old, unlinked file would exclude nobody.
            let held = fileSystem.identity(of: lockDescriptor)
            if held != nil, held == fileSystem.identity(of: "lock", in: root.descriptor),
                fileSystem.identity(of: root.descriptor) == fileSystem.identity(of: layout.directory, in: AT_FDCWD)
            {
                return
            }
            lastFailure = DiskCacheFileFailure(action: "lock", path: layout.lockPath, code: ENOENT)
            closeLock()
        }
        throw lastFailure
    }

    /// Takes `flock` without blocking, again and again with pauses growing from 1 to 10 ms, until
    /// it is taken or `deadline` (in `DispatchTime` nanoseconds) passes.
    private func waitForLock(until deadline: UInt64) throws(DiskCacheFileFailure) {
        var pause: UInt32 = 1_000
        while flock(lockDescriptor, LOCK_EX | LOCK_NB) != 0 {
            if errno == EINTR { continue }
            guard errno == EWOULDBLOCK else {
                throw DiskCacheFileFailure(action: "lock", path: layout.lockPath, code: errno)
            }
            guard DispatchTime.now().uptimeNanoseconds < deadline else {
                throw DiskCacheFileFailure(action: "lock", path: layout.lockPath, code: EWOULDBLOCK)
            }
            usleep(pause)
            pause = min(pause * 2, 10_000)
        }
    }

    private mutating func closeLock() {
        if lockDescriptor >= 0 { close(lockDescriptor) }
        lockDescriptor = -1
        lockFolder = nil
    }

    /// Releases the lock of ``lock(waitingUpTo:)``.
    func unlock() {
        if lockDescriptor >= 0 { flock(lockDescriptor, LOCK_UN) }
    }

    /// Opens the file `name` in `folder` without following a link; a link or an entry that is not
    /// a regular file of the user is deleted (never followed) and the file opened again.
    private func openOwnFile(_ name: String, in folder: OpenDirectory, _ flags: Int32) -> Int32 {
        let descriptor = fileSystem.openFile(name, in: folder, flags)
        let isLink = descriptor == -ELOOP || descriptor == -EMLINK
        guard isLink || (descriptor >= 0 && !fileSystem.isOwnRegularFile(descriptor)) else { return descriptor }
        if descriptor >= 0 { close(descriptor) }
        // A folder in the way is deleted only when empty: the open below then fails.
        if unlinkat(folder.descriptor, name, 0) != 0 { unlinkat(folder.descriptor, name, AT_REMOVEDIR) }
        return fileSystem.openFile(name, in: folder, flags)
    }

    /// What changed in the journal since ``knownLength``; call it holding the lock. Opens (and
    /// creates, with its header) the journal the first time and whenever its path names another
    /// file.
    mutating func changes() throws(DiskCacheFileFailure) -> Change {
        let root = folders.root
        let current = fileSystem.identity(of: "journal", in: root.descriptor)
        guard journalDescriptor >= 0, journalFolder === root, let current, current == journalFile else {
            return try reopen(in: root)
        }
        guard let size = fileSystem.size(of: journalDescriptor) else {
            throw DiskCacheFileFailure(action: "stat", path: layout.journalPath, code: errno)
        }
        if size == knownLength { return .unchanged }
        if size > maximumLength || size < knownLength || knownLength < DiskCacheJournalFormat.headerSize {
            return try contents(size: size)
        }
        let tail = try fileSystem.read(
            journalDescriptor, count: size - knownLength, at: knownLength, path: layout.journalPath)
        return .appended(tail)
    }

    /// The journal's first `size` bytes, or its first ``maximumLength`` when it is longer.
    private func contents(size: Int) throws(DiskCacheFileFailure) -> Change {
        let count = min(size, maximumLength)
        let bytes = try fileSystem.read(journalDescriptor, count: count, at: 0, path: layout.journalPath)
        return .replaced(bytes, isCut: size > count)
    }

    /// Opens the journal in `root` afresh (creating the folders and an empty journal when
    /// missing) and returns its contents.
    private mutating func reopen(in root: OpenDirectory) throws(DiskCacheFileFailure) -> Change {
        if journalDescriptor >= 0 { close(journalDescriptor) }
        journalDescriptor = -1
        journalFile = nil
        journalFolder = nil
        knownLength = 0
        _ = folders.openTemporaryFolder()
        var descriptor = openOwnFile("journal", in: root, O_RDWR | O_CREAT)
        isWritable = descriptor >= 0
        if descriptor == -EACCES || descriptor == -EROFS {
            descriptor = openOwnFile("journal", in: root, O_RDONLY)
        }
        guard descriptor >= 0 else {
            throw DiskCacheFileFailure(action: "open", path: layout.journalPath, code: -descriptor)
        }
        journalDescriptor = descriptor
        journalFile = fileSystem.identity(of: descriptor)
        journalFolder = root
        guard let size = fileSystem.size(of: descriptor) else {
            throw DiskCacheFileFailure(action: "stat", path: layout.journalPath, code: errno)
        }
        if size == 0 && isWritable {
            let header = DiskCacheJournalFormat.header
            try fileSystem.writeAll(descriptor, contentsOf: header, at: 0, path: layout.journalPath)
            return .replaced(header, isCut: false)
        }
        return try contents(size: size)
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
        let root = folders.root
        let folder: OpenDirectory
        switch folders.openTemporaryFolder() {
        case .success(let opened): folder = opened
        case .failure(let problem): throw problem.failure(action: "open", path: layout.temporaryFolder)
        }
        let name = layout.temporaryName(suffix: "journal")
        let temporaryPath = layout.temporaryFolder + "/" + name
        let descriptor = fileSystem.openFile(name, in: folder, O_RDWR | O_CREAT | O_EXCL)
        guard descriptor >= 0 else {
            throw DiskCacheFileFailure(action: "create", path: temporaryPath, code: -descriptor)
        }
        do throws(DiskCacheFileFailure) {
            try fileSystem.writeAll(descriptor, contentsOf: contents, at: 0, path: temporaryPath)
            guard fsync(descriptor) == 0 else {
                throw DiskCacheFileFailure(action: "fsync", path: temporaryPath, code: errno)
            }
            guard renameat(folder.descriptor, name, root.descriptor, "journal") == 0 else {
                throw DiskCacheFileFailure(action: "rename", path: temporaryPath, code: errno)
            }
        } catch {
            close(descriptor)
            unlinkat(folder.descriptor, name, 0)
            throw error
        }
        fsync(root.descriptor)
        if journalDescriptor >= 0 { close(journalDescriptor) }
        journalDescriptor = descriptor
        journalFile = fileSystem.identity(of: descriptor)
        journalFolder = root
        isWritable = true
        knownLength = contents.count
    }

    /// Closes the files; the journal is not used afterwards.
    mutating func closeFiles() {
        if journalDescriptor >= 0 { close(journalDescriptor) }
        journalDescriptor = -1
        journalFolder = nil
        closeLock()
    }
}

import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The body files of a disk cache: written to `tmp/` and renamed into place, read back whole
/// and verified, deleted.
struct DiskCacheBodyFiles: Sendable {
    /// Why a body could not be returned.
    enum ReadProblem: Error, Equatable {
        case missing
        case length(found: Int)
        case checksum(computed: UInt32)
        case failed(DiskCacheFileFailure)
    }

    let layout: DiskCacheLayout
    let fileSystem: DiskCacheFileSystem
    /// ``DiskCacheLayout/bodiesFolder``, kept open: a hit opens its body relative to it.
    private let openBodiesFolder: OpenDirectory

    /// Creates the bodies folder if it is missing (so that the first launch's hits open bodies
    /// relative to it too) and keeps it open.
    init(layout: DiskCacheLayout, fileSystem: DiskCacheFileSystem) {
        self.layout = layout
        self.fileSystem = fileSystem
        fileSystem.makeDirectory(layout.bodiesFolder)
        openBodiesFolder = OpenDirectory(path: layout.bodiesFolder)
    }

    /// Writes `data` to a new file in the temporary folder and returns its path. Nothing is
    /// flushed: the journal records the body's length and checksum, so a body that a power loss
    /// tore or emptied is caught when read, never returned.
    func writeTemporary(_ data: Data) throws(DiskCacheFileFailure) -> String {
        let path = layout.temporaryPath(suffix: "body")
        var descriptor = fileSystem.openFile(path, O_WRONLY | O_CREAT | O_EXCL)
        if descriptor == -ENOENT {
            // The folder was deleted behind the cache's back.
            fileSystem.makeDirectory(layout.temporaryFolder)
            descriptor = fileSystem.openFile(path, O_WRONLY | O_CREAT | O_EXCL)
        }
        guard descriptor >= 0 else { throw DiskCacheFileFailure(action: "create", path: path, code: -descriptor) }
        defer { close(descriptor) }
        do throws(DiskCacheFileFailure) {
            try fileSystem.writeAll(descriptor, contentsOf: data, at: 0, path: path)
        } catch {
            unlink(path)
            throw error
        }
        return path
    }

    /// Renames a finished temporary file into place as the body of `digest`, replacing any.
    func install(_ temporaryPath: String, as digest: SHA256Digest) throws(DiskCacheFileFailure) {
        let destination = layout.bodyPath(for: digest)
        if rename(temporaryPath, destination) == 0 { return }
        if errno == ENOENT {
            fileSystem.makeDirectory(layout.bodyFolder(for: digest))
            if rename(temporaryPath, destination) == 0 { return }
        }
        throw DiskCacheFileFailure(action: "rename", path: temporaryPath, code: errno)
    }

    /// Deletes the body of `digest`, if any.
    func removeBody(of digest: SHA256Digest) {
        unlink(layout.bodyPath(for: digest))
    }

    /// Deletes a temporary file that was not installed.
    func removeTemporary(_ path: String) {
        unlink(path)
    }

    /// Reads the body of `digest` whole and checks it against the recorded length and CRC-32.
    func readBody(of digest: SHA256Digest, size: Int, checksum: UInt32) -> Result<Data, ReadProblem> {
        var descriptor = layout.withBodyPath(for: digest, relative: true) {
            fileSystem.openFile($0, in: openBodiesFolder, O_RDONLY)
        }
        if descriptor == -ENOENT || descriptor == -EBADF {
            // Not there, or the folder kept open was deleted or replaced (another process's
            // `removeAll`, or by hand): the full path decides.
            descriptor = layout.withBodyPath(for: digest) { fileSystem.openFile($0, O_RDONLY) }
        }
        guard descriptor >= 0 else {
            if descriptor == -ENOENT { return .failure(.missing) }
            let path = layout.bodyPath(for: digest)
            return .failure(.failed(DiskCacheFileFailure(action: "open", path: path, code: -descriptor)))
        }
        defer { close(descriptor) }
        // One byte more than recorded, so a file grown behind the cache's back shows without an
        // fstat: a hit costs open, read and close. Read into memory the Data then owns, neither
        // zero-filled first nor trimmed after.
        let buffer = UnsafeMutableRawBufferPointer.allocate(byteCount: size + 1, alignment: 16)
        // Proven: at least one byte was allocated.
        let start = buffer.baseAddress!
        var failure: Int32 = 0
        var read = 0
        // A regular file's read returns every byte it has up to the count asked, so one call
        // normally settles it; the loop only resumes a read a signal cut short.
        while true {
            let result = pread(descriptor, start + read, buffer.count - read, off_t(read))
            if result < 0 {
                if errno == EINTR { continue }
                failure = errno
                break
            }
            read += result
            if result == 0 || read >= size { break }
        }
        guard failure == 0, read == size else {
            buffer.deallocate()
            let path = layout.bodyPath(for: digest)
            if failure != 0 {
                return .failure(.failed(DiskCacheFileFailure(action: "read", path: path, code: failure)))
            }
            // Longer or shorter than recorded: its real length names the fault.
            return .failure(.length(found: read > size ? fileSystem.size(of: descriptor) ?? read : read))
        }
        let data = Data(bytesNoCopy: start, count: size, deallocator: .custom { pointer, _ in pointer.deallocate() })
        let computed = data.withUnsafeBytes { CRC32.checksum($0) }
        guard computed == checksum else { return .failure(.checksum(computed: computed)) }
        return .success(data)
    }

    /// Deletes every file in the bodies folder that `isListed` rejects; lists the whole folder,
    /// so it runs only after the journal was found damaged (records, and the entries they named,
    /// were lost).
    ///
    /// - Returns: How many files were deleted.
    @discardableResult
    func removeUnlisted(isListed: (SHA256Digest) -> Bool) -> Int {
        var removed = 0
        for folder in fileSystem.contents(ofDirectory: layout.bodiesFolder) ?? [] {
            let folderPath = layout.bodiesFolder + "/" + folder
            for name in fileSystem.contents(ofDirectory: folderPath) ?? [] {
                let digest = Self.digest(named: name)
                if let digest, name.hasPrefix(folder), isListed(digest) { continue }
                if unlink(folderPath + "/" + name) == 0 { removed += 1 }
            }
        }
        return removed
    }

    /// Deletes the files left in the temporary folder by processes that no longer run.
    func removeAbandonedTemporaryFiles() {
        let me = getpid()
        for name in fileSystem.contents(ofDirectory: layout.temporaryFolder) ?? [] {
            if let writer = name.split(separator: "-", maxSplits: 1).first.flatMap({ pid_t($0) }) {
                // Another live process (or this one) may be writing it right now.
                if writer == me || kill(writer, 0) == 0 || errno == EPERM { continue }
            }
            unlink(layout.temporaryFolder + "/" + name)
        }
    }

    /// Deletes everything in the bodies folder, leaving the folder itself (``readBody(of:size:checksum:)``
    /// opens bodies relative to it).
    func removeAllBodies() {
        for folder in fileSystem.contents(ofDirectory: layout.bodiesFolder) ?? [] {
            try? FileManager.default.removeItem(atPath: layout.bodiesFolder + "/" + folder)
        }
        fileSystem.makeDirectory(layout.bodiesFolder)
    }

    /// The digest a body file name spells, or nil when it spells none.
    static func digest(named name: String) -> SHA256Digest? {
        let utf8 = Array(name.utf8)
        guard utf8.count == 64 else { return nil }
        var words: [UInt64] = [0, 0, 0, 0]
        for (position, character) in utf8.enumerated() {
            let value: UInt8
            switch character {
            case UInt8(ascii: "0")...UInt8(ascii: "9"): value = character - UInt8(ascii: "0")
            case UInt8(ascii: "a")...UInt8(ascii: "f"): value = character - UInt8(ascii: "a") + 10
            default: return nil
            }
            words[position / 16] = words[position / 16] << 4 | UInt64(value)
        }
        return SHA256Digest(word0: words[0], word1: words[1], word2: words[2], word3: words[3])
    }
}

import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The body files of a disk cache: written to `tmp/` and renamed into place, read back whole
/// and verified, deleted; always relative to the folders ``DiskCacheFolders`` keeps open, never
/// through a symbolic link.
struct DiskCacheBodyFiles: Sendable {
    /// Why a body could not be returned.
    enum ReadProblem: Error, Equatable {
        case missing
        case length(found: Int)
        case checksum(computed: UInt32)
        /// The body is a symbolic link, or its folder is not the user's: damage, never followed.
        case unsafeEntry(DiskCacheFileFailure)
        /// The system refused for now (no descriptor left, an I/O error, a permission): the body
        /// may be whole, so it stays.
        case failed(DiskCacheFileFailure)
    }

    /// A body written to `tmp/` and not yet renamed into place.
    struct TemporaryFile: Sendable {
        let folder: OpenDirectory
        let name: String
        /// For error messages.
        var path: String
    }

    let folders: DiskCacheFolders
    var layout: DiskCacheLayout { folders.layout }
    var fileSystem: DiskCacheFileSystem { folders.fileSystem }

    /// Writes `data` to a new file in the temporary folder. Nothing is flushed: the journal
    /// records the body's length and checksum, so a body that a power loss tore or emptied is
    /// caught when read, never returned.
    func writeTemporary(_ data: Data) throws(DiskCacheFileFailure) -> TemporaryFile {
        let folder: OpenDirectory
        switch folders.openTemporaryFolder() {
        case .success(let opened): folder = opened
        case .failure(let problem): throw problem.failure(action: "open", path: layout.temporaryFolder)
        }
        let name = layout.temporaryName(suffix: "body")
        let file = TemporaryFile(folder: folder, name: name, path: layout.temporaryFolder + "/" + name)
        let descriptor = fileSystem.openFile(name, in: folder, O_WRONLY | O_CREAT | O_EXCL)
        guard descriptor >= 0 else { throw DiskCacheFileFailure(action: "create", path: file.path, code: -descriptor) }
        defer { close(descriptor) }
        do throws(DiskCacheFileFailure) {
            try fileSystem.writeAll(descriptor, contentsOf: data, at: 0, path: file.path)
        } catch {
            removeTemporary(file)
            throw error
        }
        return file
    }

    /// Renames a finished temporary file into place as the body of `digest`, replacing any.
    func install(_ file: TemporaryFile, as digest: SHA256Digest) throws(DiskCacheFileFailure) {
        let folderNumber = Self.folderNumber(of: digest)
        let folder: OpenDirectory
        switch folders.openBodyFolder(folderNumber) {
        case .success(let opened): folder = opened
        case .failure(let problem): throw problem.failure(action: "open", path: layout.bodyFolder(for: digest))
        }
        guard renameat(file.folder.descriptor, file.name, folder.descriptor, digest.description) == 0 else {
            throw DiskCacheFileFailure(action: "rename", path: file.path, code: errno)
        }
    }

    /// Deletes the body of `digest`, if any (a link is deleted itself, never followed).
    func removeBody(of digest: SHA256Digest) {
        guard let bodies = folders.bodies(forFolder: Self.folderNumber(of: digest)) else { return }
        layout.withBodyPath(for: digest, relative: true) { _ = unlinkat(bodies.descriptor, $0, 0) }
    }

    /// Deletes a temporary file that was not installed.
    func removeTemporary(_ file: TemporaryFile) {
        unlinkat(file.folder.descriptor, file.name, 0)
    }

    /// The number of the folder in `bodies/` that holds the body of `digest`: its first byte.
    static func folderNumber(of digest: SHA256Digest) -> Int {
        Int(digest.word0 >> 56)
    }

    /// Reads the body of `digest` whole and checks it against the recorded length and CRC-32.
    func readBody(of digest: SHA256Digest, size: Int, checksum: UInt32) -> Result<Data, ReadProblem> {
        let folderNumber = Self.folderNumber(of: digest)
        var descriptor = -ENOENT
        for attempt in 0..<2 {
            guard let bodies = folders.bodies(forFolder: folderNumber) else {
                let failure = DiskCacheFileFailure(action: "open", path: layout.bodyFolder(for: digest), code: ENOTDIR)
                return .failure(.unsafeEntry(failure))
            }
            descriptor = layout.withBodyPath(for: digest, relative: true) {
                fileSystem.openFile($0, in: bodies, O_RDONLY | O_NOFOLLOW)
            }
            // Not there: the folder kept open may have been deleted or replaced (another process's
            // `removeAll`, or by hand), and the folder the path names now decides.
            guard descriptor == -ENOENT, attempt == 0, (try? folders.refreshed()) != nil else { break }
        }
        guard descriptor >= 0 else {
            if descriptor == -ENOENT { return .failure(.missing) }
            let failure = DiskCacheFileFailure(action: "open", path: layout.bodyPath(for: digest), code: -descriptor)
            return .failure(descriptor == -ELOOP || descriptor == -EMLINK ? .unsafeEntry(failure) : .failed(failure))
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

    /// Deletes every file in the bodies folder that `isListed` rejects, and whatever is not a
    /// folder of the user where a body folder belongs (links deleted, never followed); lists the
    /// whole folder, so it runs only when records, and the entries they named, may have been lost.
    ///
    /// - Returns: How many files were deleted.
    @discardableResult
    func removeUnlisted(isListed: (SHA256Digest) -> Bool) -> Int {
        var removed = 0
        let bodies = folders.bodiesFolder
        for folderName in fileSystem.names(in: bodies) ?? [] {
            guard case .success(let folder) = fileSystem.openFolder(folderName, in: bodies, creating: false) else {
                continue
            }
            for name in fileSystem.names(in: folder) ?? [] {
                let digest = Self.digest(named: name)
                if let digest, name.hasPrefix(folderName), isListed(digest) { continue }
                if unlinkat(folder.descriptor, name, 0) == 0 { removed += 1 }
            }
        }
        return removed
    }

    /// Deletes the files left in the temporary folder by processes that no longer run.
    func removeAbandonedTemporaryFiles() {
        guard case .success(let folder) = folders.openTemporaryFolder() else { return }
        let me = getpid()
        for name in fileSystem.names(in: folder) ?? [] {
            if let writer = name.split(separator: "-", maxSplits: 1).first.flatMap({ pid_t($0) }) {
                // Another live process (or this one) may be writing it right now.
                if writer == me || kill(writer, 0) == 0 || errno == EPERM { continue }
            }
            unlinkat(folder.descriptor, name, 0)
        }
    }

    /// Deletes everything in the bodies folder, leaving the folder itself (``readBody(of:size:checksum:)``
    /// opens bodies relative to it); never descends through a link, nor below the body folders.
    func removeAllBodies() {
        let bodies = folders.bodiesFolder
        for name in fileSystem.names(in: bodies) ?? [] {
            fileSystem.removeFolder(name, in: bodies)
        }
        folders.forgetVerifiedBodyFolders()
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

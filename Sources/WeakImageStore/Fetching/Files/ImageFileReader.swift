import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Reads whole image files, refusing anything that is not a regular file of bounded size, and
/// anything reached through a symbolic link that appeared after resolution.
///
/// The file is opened beneath its location's root by ``ConfinedFileOpener``, and the checks are made
/// on the opened descriptor, not the path, so a file swapped for a FIFO, a directory or a link
/// between resolution and reading is still refused; `O_NONBLOCK` keeps `open` from waiting on a
/// FIFO.
struct ImageFileReader: Sendable {
    /// Files larger than this many bytes are refused before any byte is read.
    let maximumFileSize: Int

    init(maximumFileSize: Int) {
        precondition(maximumFileSize > 0, "maximumFileSize must be positive")
        self.maximumFileSize = maximumFileSize
    }

    /// Reads the file at `location`, beneath its root.
    ///
    /// - Throws: ``ImageStoreError/notFound(name:search:)`` if it vanished,
    ///   ``ImageStoreError/unreadable(path:reason:)`` if it cannot be opened or read, is not a
    ///   regular file, or a symbolic link or non-folder now stands in its path,
    ///   ``ImageStoreError/fileTooLarge(path:size:limit:)`` if it is too large.
    func read(_ location: FileLocation) throws(ImageStoreError) -> Data {
        let path = location.path
        let descriptor = try ConfinedFileOpener.open(path, beneath: location.root)
        defer { close(descriptor) }

        var info = stat()
        guard fstat(descriptor, &info) == 0 else {
            throw .unreadable(path: path, reason: FileSystem.errorDescription(errno))
        }
        guard info.st_mode & S_IFMT == S_IFREG else {
            throw .unreadable(path: path, reason: "not a regular file")
        }
        let size = Int(info.st_size)
        guard size <= maximumFileSize else {
            throw .fileTooLarge(path: path, size: size, limit: maximumFileSize)
        }
        return try readAll(descriptor, expectedSize: size, path: path)
    }

    /// Reads until end of file, never past the limit even if the file grows while being read.
    private func readAll(_ descriptor: Int32, expectedSize: Int, path: String) throws(ImageStoreError) -> Data {
        var data = Data(count: expectedSize)
        var filled = 0
        var failure: Int32 = 0
        data.withUnsafeMutableBytes { buffer in
            while filled < expectedSize, let base = buffer.baseAddress {
                let result = Foundation.read(descriptor, base + filled, expectedSize - filled)
                if result > 0 {
                    filled += result
                } else if result == 0 {
                    return
                } else if errno != EINTR {
                    failure = errno
                    return
                }
            }
        }
        guard failure == 0 else {
            throw .unreadable(path: path, reason: FileSystem.errorDescription(failure))
        }
        // A file that shrank since fstat is read as it is now; the decoder judges the bytes.
        if filled < expectedSize { data.removeSubrange(filled...) }
        return data
    }
}

import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The temporary file a response body is written to as it arrives, so a body never sits in an
/// unbounded buffer while it downloads.
///
/// Plain POSIX calls on one descriptor: a file is only ever touched on the session's serial
/// delegate queue, by the ``ResponseStream`` that owns it, which closes and deletes it exactly once.
struct BodyFile: Sendable {
    /// Why a temporary file could not be made, written or read.
    struct Failure: Error, Sendable, Equatable, CustomStringConvertible {
        /// What was being done: `"create"`, `"reopen"`, `"resume"`, `"write"`, `"read"`.
        let action: String
        let path: String
        /// `errno`, or the description of the error Foundation threw.
        let reason: String

        var description: String {
            "cannot \(action) the temporary file \(path): \(reason)"
        }
    }

    let path: String
    private let descriptor: Int32

    /// Creates a new, empty file with a unique name in `directory`, readable by this user only.
    static func create(in directory: URL) throws(Failure) -> BodyFile {
        // Named after this process, as the disk cache names its own temporary files: a cache
        // opening over the folder deletes only the files of processes that no longer run.
        let path = directory.appendingPathComponent("\(getpid())-download-\(UUID().uuidString).partial").path
        let descriptor = open(path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o600)
        guard descriptor >= 0 else { throw Failure(action: "create", path: path, reason: errorText(errno)) }
        return BodyFile(path: path, descriptor: descriptor)
    }

    /// Opens the file a kept partial body is in, to append the rest.
    ///
    /// - Parameters:
    ///   - path: The file.
    ///   - expectedLength: The bytes it must hold: a file shortened or grown since it was kept
    ///     would splice the rest onto the wrong bytes.
    static func openForAppending(path: String, expectedLength: Int) throws(Failure) -> BodyFile {
        let descriptor = open(path, O_WRONLY | O_APPEND | O_CLOEXEC)
        guard descriptor >= 0 else { throw Failure(action: "reopen", path: path, reason: errorText(errno)) }
        let length = lseek(descriptor, 0, SEEK_END)
        guard length == off_t(expectedLength) else {
            close(descriptor)
            throw Failure(action: "resume", path: path, reason: "it holds \(length) bytes, not \(expectedLength)")
        }
        return BodyFile(path: path, descriptor: descriptor)
    }

    /// Appends `data` at the end of the file.
    func append(_ data: Data) throws(Failure) {
        let failedWith: Int32? = data.withUnsafeBytes { buffer in
            guard let start = buffer.baseAddress else { return nil }
            var offset = 0
            while offset < buffer.count {
                let written = write(descriptor, start + offset, buffer.count - offset)
                if written < 0 {
                    if errno == EINTR { continue }
                    return errno
                }
                offset += written
            }
            return nil
        }
        if let failedWith { throw Failure(action: "write", path: path, reason: Self.errorText(failedWith)) }
    }

    /// Closes the descriptor: nothing more is written. Called exactly once.
    func finishWriting() {
        close(descriptor)
    }

    /// The file's contents, once written.
    ///
    /// Mapped rather than copied: the decoder reads the bytes once, and mapped pages belong to
    /// the file, so the kernel can drop and re-read them under memory pressure instead of
    /// swapping a private copy. Deleting the file afterwards leaves the mapping valid (POSIX
    /// keeps an unlinked file's pages until the last mapping goes), and nobody else can shorten
    /// this private, unlinked file under it.
    ///
    /// - Parameter length: The bytes written; an empty body is never mapped.
    func contents(length: Int) throws(Failure) -> Data {
        guard length > 0 else { return Data() }
        do {
            return try Data(contentsOf: URL(fileURLWithPath: path), options: .alwaysMapped)
        } catch {
            throw Failure(action: "read", path: path, reason: String(describing: error))
        }
    }

    /// Deletes the file; a mapping of its contents stays valid.
    func delete() {
        unlink(path)
    }

    private static func errorText(_ code: Int32) -> String {
        "\(String(cString: strerror(code))) (errno \(code))"
    }
}

import Foundation

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The POSIX calls the disk cache makes, with its writes behind one replaceable function so that
/// tests can fill the disk (`ENOSPC`) at a chosen moment without filling a real one.
struct DiskCacheFileSystem: Sendable {
    /// Writes bytes at an offset of a descriptor, like `pwrite`: returns the bytes written, or
    /// `-errno`.
    let write: @Sendable (_ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, _ offset: Int) -> Int

    /// The real file system.
    static let posix = DiskCacheFileSystem { descriptor, bytes, offset in
        let written = pwrite(descriptor, bytes.baseAddress, bytes.count, off_t(offset))
        return written < 0 ? -Int(errno) : written
    }

    /// Writes all of `bytes` at `offset`.
    func writeAll(
        _ descriptor: Int32, _ bytes: UnsafeRawBufferPointer, at offset: Int, path: String
    ) throws(DiskCacheFileFailure) {
        var done = 0
        while done < bytes.count {
            let written = write(descriptor, UnsafeRawBufferPointer(rebasing: bytes[done...]), offset + done)
            if written == -Int(EINTR) { continue }
            guard written > 0 else {
                // A write that makes no progress without an error would loop forever.
                throw DiskCacheFileFailure(action: "write", path: path, code: written < 0 ? Int32(-written) : EIO)
            }
            done += written
        }
    }

    /// Writes all of `bytes` (an array or `Data`) at `offset`.
    func writeAll(
        _ descriptor: Int32, contentsOf bytes: some ContiguousBytes, at offset: Int, path: String
    ) throws(DiskCacheFileFailure) {
        try bytes.withUnsafeBytes { buffer in
            Result(typedCatching: { () throws(DiskCacheFileFailure) in
                try writeAll(descriptor, buffer, at: offset, path: path)
            })
        }.typedGet()
    }

    /// Opens `path` relative to the open folder `folder` without following a symbolic link at its
    /// end, retrying on `EINTR`; returns the descriptor or `-errno`.
    func openFile(_ path: UnsafePointer<CChar>, in folder: OpenDirectory, _ flags: Int32) -> Int32 {
        while true {
            let descriptor = openat(folder.descriptor, path, flags | O_NOFOLLOW | O_CLOEXEC)
            if descriptor >= 0 { return descriptor }
            if errno != EINTR { return -errno }
        }
    }

    /// Reads `count` bytes at `offset`; fewer when the file ends first.
    func read(_ descriptor: Int32, count: Int, at offset: Int, path: String) throws(DiskCacheFileFailure) -> [UInt8] {
        var failure: Int32 = 0
        let bytes = [UInt8](unsafeUninitializedCapacity: count) { buffer, initialized in
            initialized = 0
            while initialized < count {
                let result = pread(
                    descriptor, buffer.baseAddress! + initialized, count - initialized, off_t(offset + initialized))
                if result < 0 && errno == EINTR { continue }
                if result < 0 { failure = errno }
                if result <= 0 { break }
                initialized += result
            }
        }
        if failure != 0 { throw DiskCacheFileFailure(action: "read", path: path, code: failure) }
        return bytes
    }

    /// The size of the open file, or nil.
    func size(of descriptor: Int32) -> Int? {
        var info = stat()
        return fstat(descriptor, &info) == 0 ? Int(info.st_size) : nil
    }

    /// Which file `descriptor` is open on.
    func identity(of descriptor: Int32) -> FileIdentity? {
        var info = stat()
        return fstat(descriptor, &info) == 0
            ? FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino)) : nil
    }

    /// Creates `path` and its missing parents, `0700`; returns `errno` on failure, else 0.
    @discardableResult
    func makeDirectory(_ path: String) -> Int32 {
        if mkdir(path, 0o700) == 0 || errno == EEXIST { return 0 }
        guard errno == ENOENT else { return errno }
        let parent = (path as NSString).deletingLastPathComponent
        guard parent != path, !parent.isEmpty, makeDirectory(parent) == 0 else { return errno }
        return mkdir(path, 0o700) == 0 || errno == EEXIST ? 0 : errno
    }
}

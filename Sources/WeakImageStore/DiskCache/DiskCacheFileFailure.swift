#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// A system call on one of the disk cache's files failed: which call, on which file, with which
/// `errno`. The cache turns it into a ``DiskCacheError`` naming the entry, or counts it.
struct DiskCacheFileFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// What was being done: `"open"`, `"write"`, `"rename"`, `"lock"`, …
    let action: String
    let path: String
    let code: Int32

    /// Whether the lock file's lock was still held by another process when the wait for it ended.
    var isLockHeldElsewhere: Bool {
        action == "lock" && code == EWOULDBLOCK
    }

    var description: String {
        "cannot \(action) \(path): \(FileSystem.errorDescription(code))"
    }
}

/// A system call on one of the disk cache's files failed: which call, on which file, with which
/// `errno`. The cache turns it into a ``DiskCacheError`` naming the entry, or counts it.
struct DiskCacheFileFailure: Error, Sendable, Equatable, CustomStringConvertible {
    /// What was being done: `"open"`, `"write"`, `"rename"`, `"lock"`, …
    let action: String
    let path: String
    let code: Int32

    var description: String {
        "cannot \(action) \(path): \(FileSystem.errorDescription(code))"
    }
}

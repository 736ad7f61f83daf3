#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Why a folder of the disk cache is not used: the cache only trusts folders that belong to the
/// user it runs as and that nobody else can change.
enum DiskCacheFolderProblem: Error, Sendable, Equatable, CustomStringConvertible {
    /// The folder could not be created or opened; `code` is the `errno`.
    case failed(code: Int32)
    /// The path names a symbolic link: following it would put the cache wherever its maker chose.
    case symbolicLink
    /// The path names something other than a folder.
    case notAFolder
    /// The folder belongs to another user, who could change it under the cache.
    case foreignOwner(owner: UInt32, user: UInt32)
    /// The folder's group or other users may create, rename and delete entries in it.
    case writableByOthers(mode: UInt32)

    var description: String {
        switch self {
        case .failed(let code):
            FileSystem.errorDescription(code)
        case .symbolicLink:
            "the folder is a symbolic link"
        case .notAFolder:
            "the path is not a folder"
        case .foreignOwner(let owner, let user):
            "the folder belongs to user \(owner), not to this process's user \(user)"
        case .writableByOthers(let mode):
            "the folder is writable by its group or others (mode 0\(String(mode & 0o7777, radix: 8)))"
        }
    }

    /// The problem as a failed system call on `path`, for the journal's errors.
    func failure(action: String, path: String) -> DiskCacheFileFailure {
        switch self {
        case .failed(let code): DiskCacheFileFailure(action: action, path: path, code: code)
        case .symbolicLink: DiskCacheFileFailure(action: action, path: path, code: ELOOP)
        case .notAFolder: DiskCacheFileFailure(action: action, path: path, code: ENOTDIR)
        case .foreignOwner, .writableByOthers: DiskCacheFileFailure(action: action, path: path, code: EPERM)
        }
    }
}

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Folders and entries reached relative to open folders, never through a symbolic link: another
/// user who prepared the cache's folder (or a link planted in it) must not lead the cache to
/// read, write or delete anything outside it.
extension DiskCacheFileSystem {
    /// Opens the cache's own folder at `path`, creating it (and its missing parents) `0700`.
    ///
    /// - Returns: The folder, or why it is not trusted: a symbolic link, not a folder, owned by
    ///   another user than the effective one, or writable by its group or others.
    func openCacheFolder(_ path: String) -> Result<OpenDirectory, DiskCacheFolderProblem> {
        let code = makeDirectory(path)
        guard code == 0 else { return .failure(.failed(code: code)) }
        let descriptor = openDescriptor(path, in: AT_FDCWD, O_RDONLY | O_DIRECTORY | O_NOFOLLOW)
        guard descriptor >= 0 else {
            return .failure(problem(opening: path, in: AT_FDCWD, failedWith: -descriptor))
        }
        let folder = OpenDirectory(descriptor: descriptor)
        var info = stat()
        guard fstat(descriptor, &info) == 0 else { return .failure(.failed(code: errno)) }
        guard info.st_uid == geteuid() else {
            return .failure(.foreignOwner(owner: UInt32(info.st_uid), user: UInt32(geteuid())))
        }
        guard UInt32(info.st_mode) & 0o022 == 0 else { return .failure(.writableByOthers(mode: UInt32(info.st_mode))) }
        return .success(folder)
    }

    /// Opens the folder `name` in `parent` without following a symbolic link, creating it `0700`
    /// when missing and `creating`.
    ///
    /// A symbolic link, a file or another user's entry in its place is damage: the entry itself is
    /// deleted (a link is never followed, another user's folder only goes when empty) and, when
    /// `creating`, a folder is made in its place. A folder of the user that others may write to
    /// is made private.
    func openFolder(_ name: String, in parent: OpenDirectory, creating: Bool) -> Result<
        OpenDirectory, DiskCacheFolderProblem
    > {
        var problem = DiskCacheFolderProblem.failed(code: ENOENT)
        for _ in 0..<2 {
            if creating, mkdirat(parent.descriptor, name, 0o700) != 0, errno != EEXIST {
                return .failure(.failed(code: errno))
            }
            let descriptor = openDescriptor(name, in: parent.descriptor, O_RDONLY | O_DIRECTORY | O_NOFOLLOW)
            if descriptor >= 0 {
                let folder = OpenDirectory(descriptor: descriptor)
                var info = stat()
                guard fstat(descriptor, &info) == 0 else { return .failure(.failed(code: errno)) }
                if info.st_uid == geteuid() {
                    if UInt32(info.st_mode) & 0o022 != 0 { fchmod(descriptor, 0o700) }
                    return .success(folder)
                }
                problem = .foreignOwner(owner: UInt32(info.st_uid), user: UInt32(geteuid()))
                unlinkat(parent.descriptor, name, AT_REMOVEDIR)
            } else {
                problem = self.problem(opening: name, in: parent.descriptor, failedWith: -descriptor)
                guard problem == .symbolicLink || problem == .notAFolder else { return .failure(problem) }
                unlinkat(parent.descriptor, name, 0)
            }
            if !creating { return .failure(problem) }
        }
        return .failure(problem)
    }

    /// Opens the file `name` in `folder` without following a symbolic link (created `0600`),
    /// retrying on `EINTR`; returns the descriptor or `-errno` (`-ELOOP` for a link).
    func openFile(_ name: String, in folder: OpenDirectory, _ flags: Int32) -> Int32 {
        openDescriptor(name, in: folder.descriptor, flags | O_NOFOLLOW)
    }

    /// Whether the open file is a regular file of the effective user: anything else in the cache's
    /// folder was put there by someone else, and is damage.
    func isOwnRegularFile(_ descriptor: Int32) -> Bool {
        var info = stat()
        return fstat(descriptor, &info) == 0 && info.st_mode & S_IFMT == S_IFREG && info.st_uid == geteuid()
    }

    /// Which file the entry `name` of `folder` is (device and inode), the entry itself if it is a
    /// symbolic link; nil when there is none.
    func identity(of name: String, in folder: Int32) -> FileIdentity? {
        var info = stat()
        guard fstatat(folder, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else { return nil }
        return FileIdentity(device: UInt64(info.st_dev), inode: UInt64(info.st_ino))
    }

    /// The names in `folder` (without `.` and `..`), or nil when it cannot be listed. Lists
    /// through a descriptor of its own, so `folder` stays usable.
    func names(in folder: OpenDirectory) -> [String]? {
        let descriptor = openDescriptor(".", in: folder.descriptor, O_RDONLY | O_DIRECTORY)
        guard descriptor >= 0 else { return nil }
        guard let directory = fdopendir(descriptor) else {
            close(descriptor)
            return nil
        }
        defer { closedir(directory) }
        var names: [String] = []
        while let entry = readdir(directory) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                // Proven: d_name is a fixed array of at least one byte, NUL-terminated by readdir.
                String(cString: bytes.baseAddress!.assumingMemoryBound(to: CChar.self))
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// Empties the folder `name` in `parent` (its files, links and empty folders; never through a
    /// link, never deeper) and deletes it; a symbolic link or file there is deleted itself.
    func removeFolder(_ name: String, in parent: OpenDirectory) {
        if case .success(let folder) = openFolder(name, in: parent, creating: false) {
            for entry in names(in: folder) ?? [] where unlinkat(folder.descriptor, entry, 0) != 0 {
                unlinkat(folder.descriptor, entry, AT_REMOVEDIR)
            }
            unlinkat(parent.descriptor, name, AT_REMOVEDIR)
        }
    }

    private func openDescriptor(_ path: String, in folder: Int32, _ flags: Int32) -> Int32 {
        while true {
            let descriptor = openat(folder, path, flags | O_CLOEXEC, mode_t(0o600))
            if descriptor >= 0 { return descriptor }
            if errno != EINTR { return -errno }
        }
    }

    /// Why opening the folder `name` in `folder` with `O_DIRECTORY | O_NOFOLLOW` failed with
    /// `code`: a link is refused with `ELOOP` (`EMLINK` on some BSDs) or, on Linux, `ENOTDIR`, as
    /// a file is.
    private func problem(opening name: String, in folder: Int32, failedWith code: Int32) -> DiskCacheFolderProblem {
        guard code == ELOOP || code == EMLINK || code == ENOTDIR else { return .failed(code: code) }
        var info = stat()
        let isLink = fstatat(folder, name, &info, AT_SYMLINK_NOFOLLOW) == 0 && info.st_mode & S_IFMT == S_IFLNK
        return isLink || code != ENOTDIR ? .symbolicLink : .notAFolder
    }
}

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Opens a resolved file by walking its canonical path down from its root one component at a
/// time, never following a symbolic link, so the descriptor it returns is the file that lies at
/// that path beneath the root at the moment of opening.
///
/// Resolution checked that the file's real path lies inside the root, but the file system can
/// change before the read: a folder on the way, or the file itself, can be replaced by a symbolic
/// link to anywhere. Opening the path by name would follow that link out of the root. Here the
/// root is opened by its path (the store's directories are trusted, what is inside them is not),
/// then each folder with `openat(…, O_DIRECTORY | O_NOFOLLOW)` relative to the previous one, and
/// the file with `openat(…, O_NOFOLLOW | O_NONBLOCK)`: a symbolic link anywhere below the root
/// makes the open fail instead of being followed. The resolver stores real paths, which hold no
/// symbolic links, so a symbolic link found on the way always means the file system changed; the
/// read then fails with ``ImageStoreError/unreadable(path:reason:)``, the resolution is forgotten
/// and the next lookup resolves (and checks) the name afresh.
///
/// Why this and not the alternatives:
/// - `openat2(…, RESOLVE_BENEATH)` does the walk in the kernel, but only on Linux 5.6 and later;
///   the portable walk would be needed as the fallback anyway, and it costs one `openat` per folder
///   below the root, on the load path only (a cache hit never opens anything).
/// - Opening by path and then checking the descriptor's real path (`/proc/self/fd`, `F_GETPATH`)
///   depends on `/proc` being mounted and on parsing what the kernel reports for renamed or deleted
///   files; the walk depends on nothing but POSIX `openat` with `O_NOFOLLOW` and `O_DIRECTORY`,
///   which Linux and Apple's platforms both have.
///
/// Folders are opened with `O_PATH` on Linux, which needs only search permission, like opening by
/// path. Apple's platforms have no `O_PATH`, so there folders below the root are opened for reading
/// and must be readable (app bundles and containers are). What no path check can stop, and this
/// does not claim to: a hard link to an outside file placed inside the root, or a folder being
/// renamed out of the root in the instant after it was opened; both need write access to where
/// the outside file or folder lives.
enum ConfinedFileOpener {
    /// Why a read fails when a symbolic link (or a file) took the place of a folder or the file.
    static let changedPathReason = "a symbolic link or a non-folder appeared in its path after it was resolved"

    #if os(Linux)
    // O_PATH, which Swift's Glibc module hides behind _GNU_SOURCE; its value on every
    // architecture Swift runs on. A kernel too old to know it ignores it and opens for reading.
    private static let pathOnly: Int32 = 0o10_000_000
    private static let folderFlags = pathOnly | O_DIRECTORY | O_CLOEXEC
    #else
    private static let folderFlags = O_RDONLY | O_DIRECTORY | O_CLOEXEC
    #endif
    // O_NONBLOCK keeps a FIFO swapped in for the file from blocking the open.
    private static let fileFlags = O_RDONLY | O_NOFOLLOW | O_NONBLOCK | O_CLOEXEC

    /// Opens `path` for reading, walking down from `root` without following symbolic links.
    ///
    /// - Parameters:
    ///   - path: A canonical absolute path (no symbolic links, `.` or `..`) inside `root`.
    ///   - root: A canonical absolute folder; `/` confines nothing but still follows no link.
    /// - Returns: A descriptor the caller must close.
    /// - Throws: ``ImageStoreError/notFound(name:search:)`` if a component no longer exists,
    ///   ``ImageStoreError/unreadable(path:reason:)`` if one became a symbolic link or a non-folder
    ///   or cannot be opened.
    static func open(_ path: String, beneath root: String) throws(ImageStoreError) -> Int32 {
        guard FileSystem.isPath(path, inside: root) else {
            throw .unreadable(path: path, reason: "not inside \(root)")
        }
        let components = path.utf8.dropFirst(root == "/" ? 1 : root.utf8.count + 1)
            .split(separator: UInt8(ascii: "/"), omittingEmptySubsequences: false)
        guard let fileName = components.last, !components.contains(where: \.isEmpty) else {
            throw .unreadable(path: path, reason: "not a canonical path")
        }

        // openat rather than open: this type's own `open` would shadow the C function.
        var folder = openat(AT_FDCWD, root, folderFlags)
        guard folder >= 0 else { throw error(errno, path: path) }
        for component in components.dropLast() {
            let next = openat(folder, String(decoding: component, as: UTF8.self), folderFlags | O_NOFOLLOW)
            let code = errno
            close(folder)
            guard next >= 0 else { throw error(code, path: path) }
            folder = next
        }
        let file = openat(folder, String(decoding: fileName, as: UTF8.self), fileFlags)
        let code = errno
        close(folder)
        guard file >= 0 else { throw error(code, path: path) }
        return file
    }

    private static func error(_ code: Int32, path: String) -> ImageStoreError {
        switch code {
        case ENOENT: .notFound(name: path)
        // ELOOP: a symbolic link met with O_NOFOLLOW; ENOTDIR: a link or a file where a folder
        // was; EMLINK is what some BSDs report for the first.
        case ELOOP, ENOTDIR, EMLINK: .unreadable(path: path, reason: changedPathReason)
        default: .unreadable(path: path, reason: FileSystem.errorDescription(code))
        }
    }
}

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The few file-system queries resolution needs, as thin wrappers over POSIX.
enum FileSystem {
    /// What a path names once symbolic links are followed.
    enum Entry: Equatable {
        case regularFile(size: Int)
        case directory
        /// A FIFO, socket or device: never opened as an image.
        case other
    }

    /// The canonical absolute path of `path` (symbolic links, `.` and `..` resolved), or nil when
    /// it does not exist or cannot be resolved.
    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }

    /// What `path` is, following symbolic links, or nil when it does not exist. Never opens it.
    static func entry(at path: String) -> Entry? {
        var info = stat()
        guard stat(path, &info) == 0 else { return nil }
        switch info.st_mode & S_IFMT {
        case S_IFREG: return .regularFile(size: Int(info.st_size))
        case S_IFDIR: return .directory
        default: return .other
        }
    }

    /// Whether `path` lies inside `directory`; both must be canonical.
    ///
    /// Compares bytes, as the file system does: `String` comparison would take `"é"` and
    /// `"e\u{301}"`, which name different files, for the same.
    static func isPath(_ path: String, inside directory: String) -> Bool {
        if directory == "/" { return path.utf8.first == UInt8(ascii: "/") }
        return path.utf8.starts(with: directory.utf8)
            && path.utf8.dropFirst(directory.utf8.count).first == UInt8(ascii: "/")
    }

    /// The names in `directory`, at most `limit` of them (in the order the system lists them),
    /// without `.` and `..`; empty when it cannot be listed.
    static func entryNames(in directory: String, limit: Int) -> [String] {
        guard let stream = opendir(directory) else { return [] }
        defer { closedir(stream) }
        var names: [String] = []
        while names.count < limit, let entry = readdir(stream) {
            let name = withUnsafeBytes(of: entry.pointee.d_name) { bytes in
                String(decoding: bytes.prefix(while: { $0 != 0 }), as: UTF8.self)
            }
            if name != "." && name != ".." { names.append(name) }
        }
        return names
    }

    /// The text of the current `errno`.
    static func errorDescription(_ code: Int32) -> String {
        String(cString: strerror(code))
    }
}

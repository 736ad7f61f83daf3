import Foundation
import WeakImageStore

/// What the Foundation peers share with `ImageStore`: names resolved to files the same way
/// (for each of ``CorpusLayout/fileExtensions`` in turn, `@2x`, then `@3x`, then the plain file;
/// keyed by the resolved real path, resolutions remembered) and files read and decoded by the
/// same `BitmapDecoder`, which tells PNG from JPEG by the leading bytes.
struct PeerImageLoader {
    /// A resolved name: the file's real path, as a `String` and as the `NSString` NSCache wants
    /// (made once here rather than bridged on every lookup).
    struct ResolvedFile {
        let path: String
        let cacheKey: NSString
        let scale: Int
    }

    private static let scales = [2, 3, 1]
    private let root: String
    private let decoder = BitmapDecoder()
    private var resolutions: [String: ResolvedFile?] = [:]
    private(set) var decodeCount = 0

    init(root: URL) {
        self.root = root.standardizedFileURL.path
    }

    /// The file `name` resolves to, or nil if there is none.
    mutating func resolve(_ name: String) -> ResolvedFile? {
        if let known = resolutions[name] { return known }
        var resolved: ResolvedFile?
        candidates: for fileExtension in CorpusLayout.fileExtensions {
            for scale in Self.scales {
                let suffix = scale == 1 ? "" : "@\(scale)x"
                if let path = Self.realPath("\(root)/\(name)\(suffix).\(fileExtension)") {
                    resolved = ResolvedFile(path: path, cacheKey: path as NSString, scale: scale)
                    break candidates
                }
            }
        }
        resolutions[name] = resolved
        return resolved
    }

    /// Reads and decodes `file`, or nil if it cannot be read or decoded.
    mutating func load(_ file: ResolvedFile) -> Bitmap? {
        guard let data = FileManager.default.contents(atPath: file.path) else { return nil }
        decodeCount += 1
        return try? decoder.decode(data, scale: file.scale)
    }

    /// The canonical path of an existing file, symbolic links resolved; nil if there is none.
    static func realPath(_ path: String) -> String? {
        guard let resolved = realpath(path, nil) else { return nil }
        defer { free(resolved) }
        return String(cString: resolved)
    }
}

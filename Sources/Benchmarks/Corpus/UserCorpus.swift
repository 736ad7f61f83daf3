import Foundation
import WeakImageStore

/// Fills the ``CorpusLayout`` with a user's own PNG and JPEG files (`--corpus DIR`).
///
/// Images whose decoded size is at most the LRU's admission cost play icons and avatars; larger
/// ones play photos, pages and headers. Each class is cycled as often as the layout needs, every
/// use a separate hard link (or copy), so each row's photo is still its own image to the store.
/// If one class is empty, the other plays its roles too.
///
/// A link keeps its file's extension, lowercased (`IMG_0001.JPG` plays `feed/photo-000.jpg`), so
/// the stores find it by ``CorpusLayout/fileExtensions`` on a case-sensitive file system too.
enum UserCorpus {
    /// Why a user corpus could not be used.
    enum Failure: Error, CustomStringConvertible {
        case noImageFiles(directory: String)

        var description: String {
            switch self {
            case .noImageFiles(let directory):
                "no PNG or JPEG file under \(directory) that BitmapDecoder accepts"
            }
        }
    }

    /// The file extensions taken, compared case-insensitively.
    private static let imageExtensions: Set<String> = ["png", "jpg", "jpeg"]

    /// PNG files measured for decode speed per class, so a large corpus does not take minutes.
    private static let decodeGroupLimit = 64

    /// Links the PNG and JPEG files under `directory` into a temporary corpus for `profile`.
    ///
    /// Every file is decoded once first, by `BitmapDecoder` (which goes by the file's leading
    /// bytes, not its name): files it rejects are left out (and counted in the summary), and the
    /// others are classed by their exact decoded size.
    ///
    /// - Parameters:
    ///   - directory: Searched recursively for `*.png`, `*.jpg` and `*.jpeg` files (any case).
    ///   - admissionCostLimit: The decoded size, in bytes, up to which an image counts as small.
    /// - Throws: ``Failure/noImageFiles(directory:)``, or a file-system error.
    static func build(from directory: URL, profile: BenchmarkProfile, admissionCostLimit: Int) throws -> Corpus {
        let candidates = imageFiles(under: directory)
        let decoder = BitmapDecoder()
        var small: [URL] = []
        var large: [URL] = []
        var rejected: [(url: URL, reason: String)] = []
        var jpegCount = 0
        // The PNG decode speed table compares with libpng, so it measures the PNG files only.
        var pngFiles = (small: [URL](), large: [URL]())
        for url in candidates {
            do {
                let data = try Data(contentsOf: url)
                let cost = try decoder.decode(data, scale: 1).cost
                let isPNG = BitmapDecoder.format(of: data) == .png
                if !isPNG { jpegCount += 1 }
                if cost <= admissionCostLimit {
                    small.append(url)
                    if isPNG { pngFiles.small.append(url) }
                } else {
                    large.append(url)
                    if isPNG { pngFiles.large.append(url) }
                }
            } catch {
                rejected.append((url, String(describing: error)))
            }
        }
        guard !small.isEmpty || !large.isEmpty else { throw Failure.noImageFiles(directory: directory.path) }

        let root = try Corpus.makeTemporaryRoot()
        let layout = CorpusLayout(profile: profile)
        var usesPerClass = (small: 0, large: 0)
        for entry in layout.entries {
            let source: URL
            switch entry.role {
            case .icon, .avatar:
                let pool = small.isEmpty ? large : small
                source = pool[usesPerClass.small % pool.count]
                usesPerClass.small += 1
            case .photo, .page, .header:
                let pool = large.isEmpty ? small : large
                source = pool[usesPerClass.large % pool.count]
                usesPerClass.large += 1
            }
            let fileExtension = source.pathExtension.lowercased()
            try Corpus.link(source, to: root.appendingPathComponent("\(entry.name).\(fileExtension)"))
        }
        let limitKiB = admissionCostLimit / 1024
        var summary = [
            "user corpus \(directory.path): \(candidates.count) PNG and JPEG files; "
                + "\(small.count + large.count - jpegCount) PNG and \(jpegCount) JPEG files decode",
            "  \(small.count) small (decoded ≤ \(limitKiB) KiB) play icons and avatars",
            "  \(large.count) large play photos, pages and headers; each role is a separate link to its file",
        ]
        if let first = rejected.first {
            summary.append(
                "  \(rejected.count) left out, BitmapDecoder rejects them "
                    + "(first: \(first.url.lastPathComponent): \(first.reason))")
        }
        return Corpus(
            root: root, layout: layout, summary: summary,
            decodeGroups: [
                Corpus.DecodeGroup(
                    label: "small PNG (≤ \(limitKiB) KiB)", files: Array(pngFiles.small.prefix(decodeGroupLimit))),
                Corpus.DecodeGroup(label: "large PNG", files: Array(pngFiles.large.prefix(decodeGroupLimit))),
            ])
    }

    /// Every regular `*.png`, `*.jpg` and `*.jpeg` file under `directory` (any case), sorted by
    /// path for a stable layout.
    private static func imageFiles(under directory: URL) -> [URL] {
        guard
            let enumerator = FileManager.default.enumerator(
                at: directory, includingPropertiesForKeys: [.isRegularFileKey])
        else { return [] }
        var files: [URL] = []
        for case let url as URL in enumerator where imageExtensions.contains(url.pathExtension.lowercased()) {
            if (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
                files.append(url)
            }
        }
        return files.sorted { $0.path < $1.path }
    }
}

import Foundation
import WeakImageStore

/// Fills the ``CorpusLayout`` with a user's own PNGs (`--corpus DIR`).
///
/// Images whose decoded size is at most the LRU's admission cost play icons and avatars; larger
/// ones play photos, pages and headers. Each class is cycled as often as the layout needs, every
/// use a separate hard link (or copy), so each row's photo is still its own image to the store.
/// If one class is empty, the other plays its roles too.
enum UserCorpus {
    /// Why a user corpus could not be used.
    enum Failure: Error, CustomStringConvertible {
        case noPNGFiles(directory: String)

        var description: String {
            switch self {
            case .noPNGFiles(let directory): "no PNG file under \(directory) that PNGDecoder accepts"
            }
        }
    }

    /// Files measured for decode speed per class, so a large corpus does not take minutes.
    private static let decodeGroupLimit = 64

    /// Links the PNGs under `directory` into a temporary corpus for `profile`.
    ///
    /// Every file is decoded once first: files `PNGDecoder` rejects are left out (and counted in
    /// the summary), and the others are classed by their exact decoded size.
    ///
    /// - Parameters:
    ///   - directory: Searched recursively for `*.png` files (any case).
    ///   - admissionCostLimit: The decoded size, in bytes, up to which an image counts as small.
    /// - Throws: ``Failure/noPNGFiles(directory:)``, or a file-system error.
    static func build(from directory: URL, profile: BenchmarkProfile, admissionCostLimit: Int) throws -> Corpus {
        let candidates = pngFiles(under: directory)
        let decoder = PNGDecoder()
        var small: [URL] = []
        var large: [URL] = []
        var rejected: [(url: URL, reason: String)] = []
        for url in candidates {
            do {
                let cost = try decoder.decode(Data(contentsOf: url), scale: 1).cost
                if cost <= admissionCostLimit { small.append(url) } else { large.append(url) }
            } catch {
                rejected.append((url, String(describing: error)))
            }
        }
        guard !small.isEmpty || !large.isEmpty else { throw Failure.noPNGFiles(directory: directory.path) }

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
            try Corpus.link(source, to: root.appendingPathComponent("\(entry.name).png"))
        }
        let limitKiB = admissionCostLimit / 1024
        var summary = [
            "user corpus \(directory.path): \(candidates.count) PNG files",
            "  \(small.count) small (decoded ≤ \(limitKiB) KiB) play icons and avatars",
            "  \(large.count) large play photos, pages and headers; each role is a separate link to its file",
        ]
        if let first = rejected.first {
            summary.append(
                "  \(rejected.count) left out, PNGDecoder rejects them "
                    + "(first: \(first.url.lastPathComponent): \(first.reason))")
        }
        return Corpus(
            root: root, layout: layout, summary: summary,
            decodeGroups: [
                Corpus.DecodeGroup(label: "small (≤ \(limitKiB) KiB)", files: Array(small.prefix(decodeGroupLimit))),
                Corpus.DecodeGroup(label: "large", files: Array(large.prefix(decodeGroupLimit))),
            ])
    }

    /// Every regular `*.png` file under `directory`, sorted by path for a stable layout.
    private static func pngFiles(under directory: URL) -> [URL] {
        guard
            let enumerator = FileManager.default.enumerator(
                at: directory, includingPropertiesForKeys: [.isRegularFileKey])
        else { return [] }
        var files: [URL] = []
        for case let url as URL in enumerator where url.pathExtension.lowercased() == "png" {
            if (try? url.resourceValues(forKeys: [.isRegularFileKey]).isRegularFile) == true {
                files.append(url)
            }
        }
        return files.sorted { $0.path < $1.path }
    }
}

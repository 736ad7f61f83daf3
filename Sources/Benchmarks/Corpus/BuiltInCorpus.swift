import Dispatch
import Foundation
import WeakImageStore

/// Generates the default corpus into a temporary directory as an app ships it: icons at
/// @1x/@2x/@3x, avatars and flat-UI images as PNG files (``PNGEncoder``), photo-like images as
/// JPEG files (``JPEGEncoder``, quality 85, 4:2:0).
enum BuiltInCorpus {
    /// Point sizes icons are drawn at: 16-point glyphs to 60-point app icons (180 px at 3x).
    private static let iconPointSizes = [16, 20, 22, 24, 28, 32, 40, 44, 50, 60]
    private static let avatarPointSize = 40
    /// The shared icon is app-icon sized, so its copies under "Resource" stand out in the chart.
    private static let sharedIconPointSize = 60
    private static let iconScales = [1, 2, 3]

    /// One file to paint and encode.
    private struct ImageFile: Sendable {
        enum Content: Sendable {
            case icon(size: Int)
            case avatar(size: Int)
            case photo(BenchmarkProfile.PixelSize)
            case flatUI(BenchmarkProfile.PixelSize)

            var pixelCount: Int {
                switch self {
                case .icon(let size), .avatar(let size): size * size
                case .photo(let size), .flatUI(let size): size.width * size.height
                }
            }

            /// Photos are JPEG files, as cameras write them; everything drawn is PNG.
            var format: PhotoFiles.Format {
                switch self {
                case .photo: .jpeg
                case .icon, .avatar, .flatUI: .png
                }
            }
        }

        let url: URL
        let content: Content
        let seed: UInt64

        func write() throws {
            let bitmap =
                switch content {
                case .icon(let size): SyntheticImages.icon(size: size, seed: seed)
                case .avatar(let size): SyntheticImages.avatar(size: size, seed: seed)
                case .photo(let size): SyntheticImages.photo(width: size.width, height: size.height, seed: seed)
                case .flatUI(let size): SyntheticImages.flatUI(width: size.width, height: size.height, seed: seed)
                }
            try FileManager.default.createDirectory(
                at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
            try content.format.encode(bitmap).write(to: url)
        }
    }

    /// Writes the corpus for `profile`.
    ///
    /// - Throws: ``JPEGEncoderSelfCheck/Failure`` if the JPEG encoder fails its self-check; a
    ///   file-system error if the temporary directory cannot be written.
    static func generate(_ profile: BenchmarkProfile) throws -> Corpus {
        try JPEGEncoderSelfCheck.verify()
        let root = try Corpus.makeTemporaryRoot()
        let layout = CorpusLayout(profile: profile)
        var files: [ImageFile] = []
        var links: [(source: URL, destination: URL)] = []
        // The distinct large files of each role, which the other files of the role link to.
        var distinctFiles: [CorpusLayout.Role: [URL]] = [:]
        // The PNG files whose decode speed the PNG table measures, per role.
        var decodeGroups: [CorpusLayout.Role: [URL]] = [:]
        var largeFileCounts: [CorpusLayout.Role: Int] = [:]
        var seed: UInt64 = 1

        for entry in layout.entries {
            seed += 1
            switch entry.role {
            case .icon, .avatar:
                let points =
                    entry.role == .avatar
                    ? avatarPointSize
                    : entry.name == CorpusLayout.sharedIcon
                        ? sharedIconPointSize
                        : iconPointSizes[Int(seed % UInt64(iconPointSizes.count))]
                for scale in iconScales {
                    let suffix = scale == 1 ? "" : "@\(scale)x"
                    let url = root.appendingPathComponent("\(entry.name)\(suffix).png")
                    let size = points * scale
                    files.append(
                        ImageFile(
                            url: url, content: entry.role == .avatar ? .avatar(size: size) : .icon(size: size),
                            seed: seed))
                    if scale == 2 { decodeGroups[entry.role, default: []].append(url) }
                }
            case .photo, .page, .header:
                let index = largeFileCounts[entry.role, default: 0]
                largeFileCounts[entry.role] = index + 1
                if index < profile.distinctLargeImageCount {
                    let content = largeContent(entry.role, index: index, profile)
                    let url = root.appendingPathComponent("\(entry.name).\(content.format.fileExtension)")
                    files.append(ImageFile(url: url, content: content, seed: seed))
                    distinctFiles[entry.role, default: []].append(url)
                    if content.format == .png { decodeGroups[entry.role, default: []].append(url) }
                } else {
                    // A link keeps its source's extension, so it is the same kind of file.
                    let distinct = distinctFiles[entry.role, default: []]
                    let source = distinct[index % distinct.count]
                    links.append((source, root.appendingPathComponent("\(entry.name).\(source.pathExtension)")))
                }
            }
        }

        try writeInParallel(files)
        for link in links {
            try Corpus.link(link.source, to: link.destination)
        }
        return Corpus(
            root: root, layout: layout,
            summary: summary(profile, layout: layout),
            decodeGroups: [
                Corpus.DecodeGroup(label: "icons @2x (32-120 px)", files: decodeGroups[.icon] ?? []),
                Corpus.DecodeGroup(label: "avatars @2x (80 px)", files: decodeGroups[.avatar] ?? []),
                // Photos are JPEG files now; their decode speed is the JPEG table's.
                Corpus.DecodeGroup(label: "pages \(profile.pageSize), flat UI", files: decodeGroups[.page] ?? []),
                Corpus.DecodeGroup(
                    label: "headers \(profile.headerSize), flat UI", files: decodeGroups[.header] ?? []),
            ])
    }

    /// Photos are photos; pages and headers alternate between photos and flat UI.
    private static func largeContent(_ role: CorpusLayout.Role, index: Int, _ profile: BenchmarkProfile)
        -> ImageFile.Content
    {
        switch role {
        case .page: index.isMultiple(of: 2) ? .photo(profile.pageSize) : .flatUI(profile.pageSize)
        case .header: index.isMultiple(of: 2) ? .flatUI(profile.headerSize) : .photo(profile.headerSize)
        default: .photo(profile.photoSize)
        }
    }

    /// Paints and encodes on every core: encoding is most of the corpus's cost.
    private static func writeInParallel(_ files: [ImageFile]) throws {
        // Largest first, so no core is left with a big image at the end.
        let ordered = files.sorted { $0.content.pixelCount > $1.content.pixelCount }
        DispatchQueue.concurrentPerform(iterations: ordered.count) { index in
            try? ordered[index].write()
        }
        // Write what failed once more, on this thread, to throw its error.
        for file in ordered where !FileManager.default.fileExists(atPath: file.url.path) {
            try file.write()
        }
    }

    private static func summary(_ profile: BenchmarkProfile, layout: CorpusLayout) -> [String] {
        let distinct = profile.distinctLargeImageCount
        return [
            "built-in corpus, generated: drawn images as PNG (as libpng writes them by default: a filter chosen "
                + "per row, zlib level 6, Z_FILTERED), photos as baseline JPEG (quality 85, 4:2:0)",
            "  icons: \(CorpusLayout.screenIconCount + CorpusLayout.feedIconCount + 1) at @1x/@2x/@3x, "
                + "16-60 pt (16-180 px), RGBA; lookups resolve to @2x",
            "  avatars: \(CorpusLayout.avatarCount) at @1x/@2x/@3x, 40 pt, photo in a circle, RGBA",
            "  photos: \(layout.feedRowCount) JPEG files of \(profile.photoSize) px (\(distinct) distinct pictures, "
                + "hard-linked: each file is its own image to the store)",
            "  pages: \(layout.pageCount) files of \(profile.pageSize) px, JPEG photos and PNG flat UI "
                + "(\(distinct) distinct)",
            "  headers: \(layout.screenCount) files of \(profile.headerSize) px, PNG flat UI and JPEG photos",
        ]
    }
}

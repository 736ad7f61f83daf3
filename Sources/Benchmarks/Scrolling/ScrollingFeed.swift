import Dispatch
import Foundation
import WeakImageStore

/// The feed the UI thread scrolls: per row an avatar, two or three icons and its own large
/// photo, as image names in the corpus.
struct ScrollingFeed: Sendable {
    /// Each row's image names; the photo comes last.
    let rows: [[String]]
    let visibleRowCount: Int

    static func photo(_ row: Int) -> String {
        let digits = String(row)
        return "scrolling/photo-" + String(repeating: "0", count: max(0, 3 - digits.count)) + digits
    }

    /// Writes the feed's photos into `corpus`'s directory (avatars and icons are the corpus's
    /// own) and lists each row's images.
    ///
    /// - Throws: A file-system error if the photos cannot be written.
    static func make(in corpus: Corpus, profile: ScrollingProfile) throws -> ScrollingFeed {
        let root = corpus.root
        let distinct = min(profile.distinctPhotoCount, profile.rowCount)
        let size = profile.photoSize
        let written = Written()
        DispatchQueue.concurrentPerform(iterations: distinct) { index in
            let bitmap = SyntheticImages.photo(width: size.width, height: size.height, seed: 0x5C_0000 + UInt64(index))
            let url = root.appendingPathComponent("\(photo(index)).png")
            do {
                try FileManager.default.createDirectory(
                    at: url.deletingLastPathComponent(), withIntermediateDirectories: true)
                try PNGEncoder.encode(bitmap).write(to: url)
            } catch {
                written.record(error)
            }
        }
        if let error = written.firstError { throw error }
        for row in distinct..<profile.rowCount {
            try Corpus.link(
                root.appendingPathComponent("\(photo(row % distinct)).png"),
                to: root.appendingPathComponent("\(photo(row)).png"))
        }

        var random = SeededGenerator(seed: 0x5C01)
        let rows: [[String]] = (0..<profile.rowCount).map { row in
            let icons = (0..<CorpusLayout.feedIconCount).shuffled(using: &random).prefix(random.int(in: 2...3))
            return [CorpusLayout.avatar(random.int(in: 0...CorpusLayout.avatarCount - 1))]
                + icons.map(CorpusLayout.feedIcon) + [photo(row)]
        }
        return ScrollingFeed(rows: rows, visibleRowCount: min(profile.visibleRowCount, profile.rowCount))
    }

    /// The first error of the parallel writes.
    private final class Written: @unchecked Sendable {
        private let lock = NSLock()
        private var error: (any Error)?

        func record(_ newError: any Error) {
            lock.withLock { error = error ?? newError }
        }

        var firstError: (any Error)? { lock.withLock { error } }
    }
}

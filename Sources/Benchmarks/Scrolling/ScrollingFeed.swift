import Foundation
import ImageStoreTestSupport
import WeakImageStore

/// The feed the UI thread scrolls: per row an avatar, two or three icons and its own large
/// photo, as image names in the corpus.
struct ScrollingFeed: Sendable {
    /// Each row's image names; the photo comes last.
    let rows: [[String]]
    let visibleRowCount: Int

    static func photo(_ row: Int) -> String {
        PhotoFiles.name(in: "scrolling", row)
    }

    /// Writes the feed's photos into `corpus`'s directory as JPEG files (avatars and icons are
    /// the corpus's own PNGs) and lists each row's images.
    ///
    /// - Throws: ``JPEGEncoderSelfCheck/Failure`` if the JPEG encoder fails its self-check; a
    ///   file-system error if the photos cannot be written.
    static func make(in corpus: Corpus, profile: ScrollingProfile) throws -> ScrollingFeed {
        try PhotoFiles.write(
            count: profile.rowCount, distinct: profile.distinctPhotoCount, size: profile.photoSize, seed: 0x5C_0000,
            format: .jpeg, under: corpus.root, name: photo)

        var random = SeededGenerator(seed: 0x5C01)
        let rows: [[String]] = (0..<profile.rowCount).map { row in
            let icons = (0..<CorpusLayout.feedIconCount).shuffled(using: &random).prefix(random.int(in: 2...3))
            return [CorpusLayout.avatar(random.int(in: 0...CorpusLayout.avatarCount - 1))]
                + icons.map(CorpusLayout.feedIcon) + [photo(row)]
        }
        return ScrollingFeed(rows: rows, visibleRowCount: min(profile.visibleRowCount, profile.rowCount))
    }

}

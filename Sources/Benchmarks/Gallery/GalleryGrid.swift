import Foundation

/// The photo grid the gallery workload flings through: its photos' names in the corpus, row by
/// row.
struct GalleryGrid: Sendable {
    let photos: [String]
    let columnCount: Int
    let visibleRowCount: Int

    var rowCount: Int { (photos.count + columnCount - 1) / columnCount }

    /// The photos of grid row `row`.
    func photoIndices(inRow row: Int) -> Range<Int> {
        (row * columnCount)..<min((row + 1) * columnCount, photos.count)
    }

    /// The photo in the middle of the screen when row `top` is at the top.
    func centredPhoto(top: Int) -> Int {
        let row = min(top + visibleRowCount / 2, rowCount - 1)
        return min(row * columnCount + columnCount / 2, photos.count - 1)
    }

    static func photo(_ index: Int) -> String {
        PhotoFiles.name(in: "gallery", index)
    }

    /// Writes the grid's photos into `corpus`'s directory, as JPEG files like a camera roll's.
    ///
    /// - Throws: ``JPEGEncoderSelfCheck/Failure`` if the JPEG encoder fails its self-check; a
    ///   file-system error if the photos cannot be written.
    static func make(in corpus: Corpus, profile: GalleryProfile) throws -> GalleryGrid {
        try PhotoFiles.write(
            count: profile.photoCount, distinct: profile.distinctPhotoCount, size: profile.photoSize,
            seed: 0x6A_0000, format: .jpeg, under: corpus.root, name: photo)
        let columnCount = max(1, profile.columnCount)
        let rowCount = (profile.photoCount + columnCount - 1) / columnCount
        return GalleryGrid(
            photos: (0..<profile.photoCount).map(photo), columnCount: columnCount,
            visibleRowCount: min(profile.visibleRowCount, rowCount))
    }
}

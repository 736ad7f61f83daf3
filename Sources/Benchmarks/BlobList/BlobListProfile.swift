/// The size of the blob list workload: the full run, or `--quick` (the same shape, fewer rows and
/// smaller photos, so the section stays a few seconds of the quick run's 30).
///
/// The fast speeds scroll to the end; a person's paces scroll a part of the list, as the network
/// feed does, since 500 rows at 2 a second would take four minutes per strategy.
struct BlobListProfile {
    /// Rows in the table, each with its own photo blob.
    let rowCount: Int
    /// Rows on screen at once.
    let visibleRowCount: Int
    /// The photos' size: chosen so that the benchmark's JPEG encoder (quality 85, 4:2:0) makes a
    /// blob close to the source material's ≈500 KB (BENCHMARKS.md has the size it makes); both
    /// sides are whole 16-pixel blocks.
    let photoSize: BenchmarkProfile.PixelSize
    /// Distinct photos encoded; each row's blob is still a copy of its own whenever it is read.
    let distinctPhotoCount: Int
    /// How long the UI thread keeps drawing frames, at most, for a screen's photos to arrive.
    let settleSeconds: Double
    /// How long the first screen stays still before a person's pace scrolls: someone looks at a
    /// screen before flicking it, as the network feed's first screen settles for a second.
    let firstLookSeconds: Double
    /// How far the list scrolls at each speed (reading and browsing: a single scroll down of
    /// about 20 and 15 seconds in the full run).
    let distance: ScrollDistance

    /// How far the list scrolls at `speed`: to the end at the fast speeds.
    func rowsScrolled(at speed: ScrollSpeed) -> Int {
        distance.rows(at: speed, of: rowCount)
    }

    static let full = BlobListProfile(
        rowCount: 500, visibleRowCount: 6, photoSize: BenchmarkProfile.PixelSize(width: 2304, height: 1728),
        distinctPhotoCount: 8, settleSeconds: 5, firstLookSeconds: 1,
        distance: ScrollDistance(readingRows: 40, browsingRows: 150))

    /// Smaller photos: a smoke test of the section, not the source material's sizes.
    static let quick = BlobListProfile(
        rowCount: 30, visibleRowCount: 6, photoSize: BenchmarkProfile.PixelSize(width: 1152, height: 864),
        distinctPhotoCount: 1, settleSeconds: 5, firstLookSeconds: 0.2,
        distance: ScrollDistance(readingRows: 4, browsingRows: 12))
}

/// The size of the scrolling workload: the full run, or `--quick` (the same shape, fewer rows
/// and smaller photos, so the section stays well under 30 s on 2 cores).
///
/// The full run's photos are 2048 × 1536: the point is what one such decode does to a 16.7 ms
/// frame. Even the quick run's photos take several frames to decode.
struct ScrollingProfile {
    /// Rows in the feed, each with its own photo.
    let rowCount: Int
    /// Rows on screen at once.
    let visibleRowCount: Int
    let photoSize: BenchmarkProfile.PixelSize
    /// Distinct photo contents encoded; the other rows' files are hard links (each its own
    /// image to the store), so building the corpus stays fast.
    let distinctPhotoCount: Int
    /// How long the UI thread keeps drawing frames after the scroll stopped, at most, for the
    /// last screen's images to arrive.
    let settleSeconds: Double

    static let full = ScrollingProfile(
        rowCount: 72, visibleRowCount: 6, photoSize: BenchmarkProfile.PixelSize(width: 2048, height: 1536),
        distinctPhotoCount: 4, settleSeconds: 5)

    static let quick = ScrollingProfile(
        rowCount: 24, visibleRowCount: 6, photoSize: BenchmarkProfile.PixelSize(width: 1536, height: 1152),
        distinctPhotoCount: 1, settleSeconds: 5)
}

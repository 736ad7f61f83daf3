/// The size of the gallery workload: the full run, or `--quick` (the same shape, fewer and
/// smaller photos, a few flings).
struct GalleryProfile {
    let photoCount: Int
    let photoSize: BenchmarkProfile.PixelSize
    /// Distinct photo contents encoded; the other files are hard links (each its own image to the
    /// store), so building the grid stays fast.
    let distinctPhotoCount: Int
    let columnCount: Int
    /// Grid rows on screen at once.
    let visibleRowCount: Int
    /// The longest side, in pixels, of a grid cell's thumbnail.
    let thumbnailPixelSize: Int
    /// Rows one fling moves the grid before it stops.
    let flingRowCount: Int
    /// Rows the grid moves per frame while flinging.
    let rowsPerFrame: Int
    /// Frames the opened photo stays on screen once shown, before going back.
    let detailFrameCount: Int
    /// How long the UI thread waits, at most, for a stopped screen's or an opened photo's images.
    let settleSeconds: Double

    static let full = GalleryProfile(
        photoCount: 200, photoSize: BenchmarkProfile.PixelSize(width: 2048, height: 1536), distinctPhotoCount: 4,
        columnCount: 3, visibleRowCount: 5, thumbnailPixelSize: 256, flingRowCount: 12, rowsPerFrame: 1,
        detailFrameCount: 30, settleSeconds: 5)

    static let quick = GalleryProfile(
        photoCount: 30, photoSize: BenchmarkProfile.PixelSize(width: 1024, height: 768), distinctPhotoCount: 1,
        columnCount: 3, visibleRowCount: 5, thumbnailPixelSize: 256, flingRowCount: 2, rowsPerFrame: 1,
        detailFrameCount: 10, settleSeconds: 5)
}

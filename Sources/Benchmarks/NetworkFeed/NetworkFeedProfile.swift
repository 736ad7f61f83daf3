/// The size of the network feed workload: the full run, or `--quick` (the same script over fewer
/// rows and smaller photos, so the section stays a small part of the quick run).
struct NetworkFeedProfile {
    /// Rows in the feed, each with an avatar and a photo of its own URL.
    let rowCount: Int
    /// Rows on screen at once.
    let visibleRowCount: Int
    /// The photos' sizes, cycled through the rows: 1 to 3 megapixels in the full run.
    let photoSizes: [BenchmarkProfile.PixelSize]
    /// Distinct photos encoded; each row's URL serves one of them. Decoders and caches key by
    /// URL, so a photo served under two URLs costs what two photos cost.
    let distinctPhotoCount: Int
    /// Avatars' side in pixels, and how many people post in the feed (rows share their avatars).
    let avatarSide: Int
    let authorCount: Int
    /// The side, in pixels, of the cell's picture: a 120-point square at 3×. The display-size
    /// strategy asks for photos no larger.
    let cellPixelSize: Int
    /// How long the UI thread draws frames after the first screen and after each scroll, the
    /// same for every strategy so that the memory warning and the relaunch fall at the same
    /// moment in every line of the chart.
    let settleSeconds: Double
    /// How far the list scrolls at each speed (reading and browsing: a single scroll down of
    /// about 20 and 15 seconds in the full run).
    let distance: ScrollDistance

    /// How far the list scrolls at `speed`: to the end at the fast speeds.
    func rowsScrolled(at speed: ScrollSpeed) -> Int {
        distance.rows(at: speed, of: rowCount)
    }

    static let full = NetworkFeedProfile(
        rowCount: 300, visibleRowCount: 6,
        photoSizes: [
            BenchmarkProfile.PixelSize(width: 1152, height: 864),  // 1.0 MP
            BenchmarkProfile.PixelSize(width: 1600, height: 1200),  // 1.9 MP
            BenchmarkProfile.PixelSize(width: 1280, height: 960),  // 1.2 MP
            BenchmarkProfile.PixelSize(width: 2048, height: 1536),  // 3.1 MP
            BenchmarkProfile.PixelSize(width: 1440, height: 1088),  // 1.6 MP
            BenchmarkProfile.PixelSize(width: 1728, height: 1296),  // 2.2 MP
        ],
        distinctPhotoCount: 12, avatarSide: 144, authorCount: 50, cellPixelSize: 360, settleSeconds: 1,
        distance: ScrollDistance(readingRows: 40, browsingRows: 150))

    /// A smoke test of the section: photos of a sixth to a third of a megapixel, a short list.
    /// The naive strategy's synchronous downloads take most of its time.
    static let quick = NetworkFeedProfile(
        rowCount: 12, visibleRowCount: 4,
        photoSizes: [
            BenchmarkProfile.PixelSize(width: 480, height: 368),
            BenchmarkProfile.PixelSize(width: 640, height: 480),
        ],
        distinctPhotoCount: 2, avatarSide: 96, authorCount: 4, cellPixelSize: 360, settleSeconds: 0.12,
        distance: ScrollDistance(readingRows: 6, browsingRows: 8))
}

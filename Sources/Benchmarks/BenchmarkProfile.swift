/// How big the run is: the full run (< 3 minutes on 2 cores) or `--quick` (< 30 s, for CI).
///
/// Decoding dominates the run time (the strategies that do not share decode a photo every time
/// a row scrolls in), so image sizes are chosen for the time budget as much as for realism.
struct BenchmarkProfile {
    /// A width × height in pixels.
    struct PixelSize: CustomStringConvertible {
        let width: Int
        let height: Int

        var description: String { "\(width)×\(height)" }
    }

    let name: String
    /// Rows in the feed, each with its own photo.
    let feedRowCount: Int
    /// Pages in the pager, each its own image.
    let pageCount: Int
    /// Screens in the navigation workload, each with its own header.
    let screenCount: Int
    /// Pushes and pops in the navigation workload.
    let navigationEventCount: Int
    let photoSize: PixelSize
    let pageSize: PixelSize
    let headerSize: PixelSize
    /// Distinct pixel contents generated per large role; files beyond these are hard links, so
    /// generating the corpus stays fast while every file is still its own image to the store.
    let distinctLargeImageCount: Int
    /// Timed samples per measurement of the hit path.
    let sampleCount: Int
    /// Timed samples per input of the decode-speed comparison, which decodes every large image.
    let decodeSampleCount: Int
    /// The size of the extra photo-like and flat-UI images the decode-speed comparison adds to
    /// the built-in corpus: large images are where a decoder's throughput shows.
    let largeDecodeSize: PixelSize

    static let full = BenchmarkProfile(
        name: "full", feedRowCount: 500, pageCount: 60, screenCount: 20, navigationEventCount: 120,
        photoSize: PixelSize(width: 480, height: 320), pageSize: PixelSize(width: 1280, height: 960),
        headerSize: PixelSize(width: 1125, height: 300), distinctLargeImageCount: 8, sampleCount: 15,
        decodeSampleCount: 7, largeDecodeSize: PixelSize(width: 2048, height: 1536))

    static let quick = BenchmarkProfile(
        name: "quick", feedRowCount: 120, pageCount: 16, screenCount: 8, navigationEventCount: 40,
        photoSize: PixelSize(width: 360, height: 240), pageSize: PixelSize(width: 640, height: 480),
        headerSize: PixelSize(width: 750, height: 200), distinctLargeImageCount: 3, sampleCount: 5,
        decodeSampleCount: 3, largeDecodeSize: PixelSize(width: 1024, height: 768))
}

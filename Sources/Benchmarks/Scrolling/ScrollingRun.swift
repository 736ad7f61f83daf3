/// What one loading style cost the UI thread while scrolling the feed at one speed.
struct ScrollingRun: FrameTimedRun {
    /// One frame of the UI thread: the work it did in it, by its own CPU clock and by the wall
    /// clock (which also counts the time the thread waited for a core or a lock).
    struct Frame: Sendable {
        let cpuNanoseconds: UInt64
        let wallNanoseconds: UInt64
    }

    let style: LoadingStyle
    let speed: ScrollSpeed
    /// Every frame: the first screen loading, the scroll, the last screen loading.
    let frames: [Frame]
    /// The frames that scrolled the feed; before them the first screen loaded, after them the
    /// last one.
    let scrollFrames: Range<Int>
    /// Per row that got all its images while on screen: nanoseconds from shown to the last one set.
    let shownToSetNanoseconds: [UInt64]
    /// Rows shown that left (or the run ended) before all their images were set.
    let unfinishedRows: Int
    /// Decodes the store ran to the end, wasted ones included.
    let decodes: Int
    /// Decodes the store stopped part-way because their rows had gone.
    let stoppedDecodes: Int
    /// The work the stopped decodes did, in average finished decodes.
    let stoppedDecodeEquivalent: Double
    /// Distinct decoded images that were set on a row on screen.
    let usedDecodes: Int
    /// Results handed back for rows already gone, and dropped.
    let droppedDeliveries: Int
    let failedLookups: Int
    /// The most live decoded bytes at any moment of the run.
    let peakLiveBytes: Int
    /// The most live instances one image had at once, minus one.
    let maximumDuplicates: Int
    /// Bitmaps still alive after the rows and the store were released: 0 unless something leaked.
    let liveCountAfterRelease: Int
    let wallSeconds: Double

    /// Decodes whose image no row on screen used: finished for rows already gone.
    var wastedDecodes: Int { decodes - usedDecodes }
    /// All the decoding work nobody used, in average finished decodes: the wasted decodes and
    /// the work of the stopped ones.
    var wastedDecoding: Double { Double(wastedDecodes) + stoppedDecodeEquivalent }

    /// One frame at 60 frames per second.
    static let frameBudgetNanoseconds: UInt64 = 1_000_000_000 / 60
}

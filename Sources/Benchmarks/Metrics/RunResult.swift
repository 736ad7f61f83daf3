/// Everything measured while one strategy replayed one workload.
struct RunResult {
    let strategy: String
    /// Live decoded bytes after every step.
    let liveBytes: [Int]
    /// Bytes of the distinct images the views held after every step: the floor.
    let inUseBytes: [Int]
    /// The exact peak of live decoded bytes, transient moments within a step included.
    let peakLiveBytes: Int
    /// The peak of in-use bytes, after any action (a pager briefly holds 4 pages).
    let peakInUseBytes: Int
    let meanLiveBytes: Double
    /// The resident set size at the step with the most live bytes; nil where not measured.
    let residentBytesAtPeak: Int?
    /// New instances returned: decodes, as counted by the replay.
    let decodes: Int
    /// Distinct images (files) the replay looked up: the fewest decodes possible.
    let distinctImages: Int
    /// The strategy's own counters at the end.
    let counters: StrategyCounters
    /// The most simultaneous live copies of one image, minus one.
    let maximumDuplicates: Int
    let smallImageDecodes: RedecodeAudit
    let lookups: Int
    /// Lookups that returned nil.
    let failedLookups: Int
    /// Lookup latency, hits and misses alike.
    let lookupNanoseconds: Distribution
    let wallSeconds: Double
    /// Live bitmaps after the views and the strategy were released: 0 unless something leaked.
    let liveCountAfterRelease: Int
}

/// Identifies one load in progress.
typealias LoadID = Int

/// One load in progress and everybody waiting for it.
struct LoadOperation: Sendable {
    /// What the load reads: a resolved file, or a request a loading thread must resolve first
    /// (an async miss never touches the file system on the caller's thread).
    enum Target: Hashable, Sendable {
        /// The image of this key: read the file and decode it.
        case file(ResourceKey)
        /// A request nobody has resolved yet, at a reduced size or full size (nil).
        case request(LookupRequest, maxPixelSize: Int?)
        /// A thumbnail of a full-size key whose pixel size is not known yet: read the file's
        /// header to learn which key the thumbnail is (a size at least the image's is the
        /// full-size image itself).
        case unsized(ResourceKey, maxPixelSize: Int)
    }

    var target: Target
    /// The requests that led here, so a file that vanished makes all their resolutions stale.
    var requests: [LookupRequest]
    var waiters: [LoadWaiter] = []
    /// Whether a thread is running it; a load that is not running is queued.
    var isRunning: Bool
    /// How to stop it part-way, while a loading thread runs it; nil while queued and when a
    /// synchronous caller runs it on its own thread (that caller always wants the image).
    var cancellation: DecodeCancellation?
    /// Whether other lookups of the same target may join it (false under `.uncached`).
    let isShared: Bool
    /// The ticket of its current queue entry, while queued.
    var queueTicket = 0
    /// The priority it is queued under, while queued.
    var queuedPriority = ImageLoadPriority.veryLow

    /// The highest priority among the waiters; a load nobody waits for any more has none.
    var priority: ImageLoadPriority? {
        waiters.lazy.map(\.priority).max()
    }
}

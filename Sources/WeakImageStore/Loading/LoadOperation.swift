/// Identifies one load in progress.
typealias LoadID = Int

/// One load in progress and everybody waiting for it.
struct LoadOperation: Sendable {
    /// What the load reads: a resolved file, or a request a loading thread must resolve first
    /// (an async miss never touches the file system on the caller's thread).
    enum Target: Hashable, Sendable {
        case file(ResourceKey)
        case request(LookupRequest)
    }

    var target: Target
    /// The requests that led here, so a file that vanished makes all their resolutions stale.
    var requests: [LookupRequest]
    var waiters: [LoadWaiter] = []
    /// Whether a thread is running it; a load that is not running is queued.
    var isRunning: Bool
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

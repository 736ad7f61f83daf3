/// Identifies one load in progress.
typealias LoadID = Int

/// One load in progress and everybody waiting for it.
struct LoadOperation: Sendable {
    /// What the load produces: a resolved image, or a request a loading thread must resolve
    /// first (an async miss never touches the file system on the caller's thread).
    enum Target: Hashable, Sendable {
        /// This image: fetch its bytes and decode them.
        case image(ImageSource)
        /// A request nobody has resolved yet.
        case request(ImageRequest)
        /// A thumbnail of a full-size image whose pixel size is not known yet: fetch the bytes
        /// and read their header to learn which key the thumbnail is (a size at least the
        /// image's is the full-size image itself).
        case unsized(ImageSource, maxPixelSize: Int)
    }

    var target: Target
    /// The requests that led here, so a file that vanished makes all their resolutions stale.
    var requests: [ImageRequest]
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

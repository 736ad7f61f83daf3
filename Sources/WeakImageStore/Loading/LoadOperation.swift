import Foundation

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

    /// Where the load's bytes are: not fetched yet (a loading thread fetches them when it runs
    /// the load), being downloaded (no thread holds the load meanwhile), or downloaded and queued
    /// for a loading thread to decode.
    enum Bytes: Sendable {
        case unfetched
        /// The ticket is nil between asking the downloader and hearing back from it.
        case downloading(DownloadTicket?)
        case fetched(Data)
    }

    var target: Target
    var bytes = Bytes.unfetched
    /// The requests that led here, so a file that vanished makes all their resolutions stale.
    var requests: [ImageRequest]
    var waiters: [LoadWaiter] = []
    /// Whether a thread is running it or its bytes are being downloaded; a load that is not
    /// running is queued.
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

    /// The download in progress for it, if any.
    var downloadTicket: DownloadTicket? {
        if case .downloading(let ticket) = bytes { return ticket }
        return nil
    }

    /// Whether it waits for its bytes from the network.
    var isDownloading: Bool {
        if case .downloading = bytes { return true }
        return false
    }

    /// The highest priority among the waiters; a load nobody waits for any more has none.
    var priority: ImageLoadPriority? {
        waiters.lazy.map(\.priority).max()
    }
}

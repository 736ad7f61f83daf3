import Foundation

/// Identifies one load in progress.
typealias LoadID = Int

/// What one load in progress carries besides its waiters (which its ``CoalescingWorkQueue``
/// entry holds).
struct LoadOperation: Sendable {
    /// What the load produces: a resolved image, or a request a loading thread must resolve
    /// first (an async miss never touches the file system on the caller's thread). Loads of the
    /// same target coalesce.
    enum Target: Hashable, Sendable {
        /// This image: fetch its bytes and decode them.
        case image(ImageLocator)
        /// A request nobody has resolved yet.
        case request(ImageRequest)
        /// A thumbnail whose key is not known yet: fetch the bytes and read their header to
        /// learn it.
        case unsized(UnsizedThumbnail)
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

    var bytes = Bytes.unfetched
    /// The requests that led here, so a file that vanished makes all their resolutions stale.
    var requests: [ImageRequest]
    /// How to stop it part-way, while a loading thread runs it; nil while queued and when a
    /// synchronous caller runs it on its own thread (that caller always wants the image).
    var cancellation: DecodeCancellation?

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
}

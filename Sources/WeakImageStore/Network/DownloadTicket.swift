/// One caller's wait for a transfer: what ``ImageDownloader/cancel(_:)`` and
/// ``ImageDownloader/setPriority(_:of:)`` name. Opaque, and unique within its downloader.
struct DownloadTicket: Hashable, Sendable {
    let id: Int
}

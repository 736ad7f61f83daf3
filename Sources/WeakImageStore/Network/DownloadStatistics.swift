/// What an ``ImageDownloader`` has done since it was created.
///
/// Every started transfer ends exactly once: completed, cancelled, or failed. Failures are the
/// rest, `downloadsStarted - downloadsCompleted - downloadsCancelled` once none is running.
struct DownloadStatistics: Sendable, Equatable {
    /// Transfers that reached URLSession: one per URL identity however many tickets share it.
    /// Queued transfers dropped before their turn and failures remembered for the back-off start
    /// none.
    var downloadsStarted = 0
    /// Transfers whose whole body was delivered.
    var downloadsCompleted = 0
    /// Started transfers stopped at the socket because their last ticket left.
    var downloadsCancelled = 0
    /// Body bytes received, by every transfer, including those that later failed or were
    /// cancelled: what crossed the network.
    var bytesDownloaded = 0
    /// Transfers whose body continued a kept partial body (a `206` answer to `Range`).
    var downloadsResumed = 0
    /// Body bytes those transfers did not download again: the partial bodies' lengths.
    var bytesResumed = 0
}

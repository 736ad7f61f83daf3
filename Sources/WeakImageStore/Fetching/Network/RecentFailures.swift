import Dispatch

/// Failures remembered for a while, so a URL that just failed is not requested again at once: a
/// broken image in a scrolling list would otherwise cost a request for every cell that shows it.
///
/// Times are `DispatchTime` uptime nanoseconds: monotonic, and available on every platform the
/// library supports (`ContinuousClock` needs iOS 16). Expired entries are dropped when looked up,
/// and all of them whenever the table has doubled since the last sweep, so it stays bounded by
/// the failures of one back-off period.
struct RecentFailures: Sendable {
    private struct Entry: Sendable {
        let error: ImageStoreError
        let expiry: UInt64
    }

    /// How long a failure is remembered, in nanoseconds; 0 remembers none.
    let backoff: UInt64
    private var entries: [SourceIdentity: Entry] = [:]
    private var sweepAtCount = 64

    /// - Parameter backoff: Seconds a failure is remembered; 0 remembers none.
    init(backoff: Double) {
        self.backoff = UInt64((backoff * 1e9).rounded())
    }

    /// The number of failures held, expired ones included; for tests.
    var count: Int { entries.count }

    /// Remembers that the transfer of `identity` failed with `error` at `now`.
    mutating func remember(_ error: ImageStoreError, for identity: SourceIdentity, now: UInt64) {
        guard backoff > 0 else { return }
        entries[identity] = Entry(error: error, expiry: now &+ backoff)
        if entries.count >= sweepAtCount {
            entries = entries.filter { $0.value.expiry > now }
            sweepAtCount = max(64, entries.count * 2)
        }
    }

    /// The failure of `identity` if it happened less than the back-off before `now`.
    mutating func failure(of identity: SourceIdentity, now: UInt64) -> ImageStoreError? {
        guard let entry = entries[identity] else { return nil }
        guard entry.expiry > now else {
            entries[identity] = nil
            return nil
        }
        return entry.error
    }
}

import Dispatch

/// Failures remembered for a while, so a URL that just failed is not requested again at once: a
/// broken image in a scrolling list would otherwise cost a request for every cell that shows it.
///
/// The back-off doubles with each failure of an identity that follows the last one's back-off
/// within `maximumBackoff`, up to `maximumBackoff`, and a random part of up to a quarter is added
/// to each, so that many clients that failed together do not all ask again together:
///
/// | failures in a row | back-off (3 s base, 5 min maximum) |
/// |---|---|
/// | 1 | 3 s, plus up to 0.75 s |
/// | 2 | 6 s, plus up to 1.5 s |
/// | n | min(3 s · 2ⁿ⁻¹, 5 min), plus up to a quarter of it |
///
/// An identity with no new failure for `maximumBackoff` after its back-off ended starts again
/// at the base. A transfer that succeeds does not end the series by itself: a server whose
/// bodies never decode (a captive portal's page) answers every request well.
///
/// Times are `DispatchTime` uptime nanoseconds: monotonic, and available on every platform the
/// library supports (`ContinuousClock` needs iOS 16). Forgotten entries are dropped when looked
/// up, and all of them whenever the table has doubled since the last sweep, so it stays bounded
/// by the failures of one back-off period.
struct RecentFailures: Sendable {
    private struct Entry: Sendable {
        let error: ImageStoreError
        /// Until when the identity is not requested.
        let expiry: UInt64
        /// Failures in a row, this one included.
        let failures: Int
        /// When a new failure starts the series again.
        let forgottenAt: UInt64
    }

    /// The first failure's back-off, in nanoseconds; 0 remembers none.
    let backoff: UInt64
    /// The longest back-off before its random part, in nanoseconds.
    let maximumBackoff: UInt64
    private var entries: [SourceIdentity: Entry] = [:]
    private var sweepAtCount = 64

    /// - Parameters:
    ///   - backoff: Seconds the first failure is remembered; 0 remembers none.
    ///   - maximumBackoff: The longest back-off in seconds, before its random part; at least
    ///     `backoff`.
    init(backoff: Double, maximumBackoff: Double) {
        precondition(maximumBackoff >= backoff, "maximumBackoff must not be below backoff")
        self.backoff = UInt64((backoff * 1e9).rounded())
        self.maximumBackoff = UInt64((maximumBackoff * 1e9).rounded())
    }

    /// The number of identities held, expired ones included; for tests.
    var count: Int { entries.count }

    /// Remembers that the transfer (or the decoding) of `identity` failed with `error` at `now`.
    ///
    /// - Parameter jitter: Which part of the random quarter to add, in 0...1; random by default.
    mutating func remember(
        _ error: ImageStoreError, for identity: SourceIdentity, now: UInt64, jitter: Double = .random(in: 0...1)
    ) {
        guard backoff > 0 else { return }
        let previous = entries[identity].flatMap { $0.forgottenAt > now ? $0.failures : nil } ?? 0
        let failures = previous + 1
        let delay = self.delay(afterFailures: failures)
        let random = UInt64((Double(delay) / 4 * min(max(jitter, 0), 1)).rounded(.down))
        let expiry = now &+ delay &+ random
        entries[identity] = Entry(
            error: error, expiry: expiry, failures: failures, forgottenAt: expiry &+ maximumBackoff)
        if entries.count >= sweepAtCount {
            entries = entries.filter { $0.value.forgottenAt > now }
            sweepAtCount = max(64, entries.count * 2)
        }
    }

    /// The failure of `identity` if its back-off has not ended at `now`.
    mutating func failure(of identity: SourceIdentity, now: UInt64) -> ImageStoreError? {
        guard let entry = entries[identity] else { return nil }
        guard entry.expiry > now else {
            if entry.forgottenAt <= now { entries[identity] = nil }
            return nil
        }
        return entry.error
    }

    /// The back-off after `failures` failures in a row, before its random part: the base
    /// doubled for each failure after the first, at most `maximumBackoff`.
    private func delay(afterFailures failures: Int) -> UInt64 {
        let doublings = min(failures - 1, 62)
        let (doubled, overflow) = backoff.multipliedReportingOverflow(by: 1 << UInt64(doublings))
        return overflow ? maximumBackoff : min(doubled, maximumBackoff)
    }
}

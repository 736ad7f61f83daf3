import Foundation

/// What the feed's server sent during one run, by its own counters: GETs per URL, the ones the
/// client abandoned, body bytes; and the URLs fetched again after the memory warning and after the
/// relaunch.
struct FeedDownloads: Sendable {
    /// The server's counts per target at one moment.
    struct Snapshot: Sendable {
        var requests: [String: Int] = [:]
        var aborted: [String: Int] = [:]
        var bodyBytes = 0
        var bodyBytesByTarget: [String: Int] = [:]

        /// GETs of `target` whose response went out whole (or is still going out).
        func whole(_ target: String) -> Int {
            (requests[target] ?? 0) - (aborted[target] ?? 0)
        }
    }

    /// At the end of the run, everything answered.
    let final: Snapshot
    let atMemoryWarning: Snapshot
    let atRelaunch: Snapshot

    var gets: Int { final.requests.values.reduce(0, +) }
    /// GETs the client abandoned before the body's end: cancelled on reuse.
    var abortedGets: Int { final.aborted.values.reduce(0, +) }
    var distinctURLs: Int { final.requests.count }
    var bodyBytes: Int { final.bodyBytes }
    /// URLs whose body went out whole more than once.
    var urlsSentWholeTwice: Int { final.requests.keys.filter { final.whole($0) > 1 }.count }

    /// Each URL sent whole more than once, as `target: GETs, cut, KB sent of KB`: whether the
    /// second transfer sent the body again or only the rest of a transfer the client cut.
    func urlsSentWholeTwiceDetails(bodies: [String: Data]) -> [String] {
        final.requests.keys.filter { final.whole($0) > 1 }.sorted().map { target in
            "\(target): \(final.requests[target] ?? 0) GETs, \(final.aborted[target] ?? 0) cut, "
                + "\((final.bodyBytesByTarget[target] ?? 0) / 1000) KB sent of \((bodies[target]?.count ?? 0) / 1000) KB"
        }
    }

    /// Whole GETs after the memory warning (up to the relaunch) of URLs already sent whole
    /// before it.
    var refetchesAfterMemoryWarning: Int { refetches(since: atMemoryWarning, until: atRelaunch) }
    /// Whole GETs after the relaunch of URLs already sent whole before it.
    var refetchesAfterRelaunch: Int { refetches(since: atRelaunch, until: final) }

    private func refetches(since before: Snapshot, until after: Snapshot) -> Int {
        before.requests.keys.reduce(0) { total, target in
            before.whole(target) > 0 ? total + max(0, after.whole(target) - before.whole(target)) : total
        }
    }
}

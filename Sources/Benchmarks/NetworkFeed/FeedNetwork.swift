import ImageStoreTestSupport

/// The link between the feed's server and the phone: a latency before each response, a few
/// responses much slower, and a bandwidth cap per connection. Set on the command line.
struct FeedNetwork: Sendable {
    var latencyMilliseconds: Double
    /// The fraction of responses that wait ``slowLatencyMilliseconds`` instead.
    var slowFraction: Double
    var slowLatencyMilliseconds: Double
    /// Kilobits (1,000 bits) per second per connection, or nil for no cap.
    var kilobitsPerSecond: Double?

    /// 40 ms, 3 % at 400 ms, 8 Mbit/s per connection: a phone on a good 4G link.
    static let phone = FeedNetwork(
        latencyMilliseconds: 40, slowFraction: 0.03, slowLatencyMilliseconds: 400, kilobitsPerSecond: 8000)

    /// The server's per-connection cap; the latency is scripted per response instead, so that the
    /// slow ones are the same responses in every run.
    var link: HTTPLink {
        HTTPLink(latency: 0, bytesPerSecond: kilobitsPerSecond.map { max(1, Int($0 * 1000 / 8)) })
    }

    /// The latency of the response at `target`, the same for every run and strategy: drawn once
    /// from the target's own seed.
    func latencySeconds(seed: UInt64) -> Double {
        var random = SeededGenerator(seed: seed)
        let isSlow = random.double(in: 0...1) < slowFraction
        return (isSlow ? slowLatencyMilliseconds : latencyMilliseconds) / 1000
    }

    var description: String {
        let bandwidth = kilobitsPerSecond.map { "\(Format.fixed($0 / 1000, digits: 1)) Mbit/s" } ?? "no cap"
        return
            "latency \(Format.fixed(latencyMilliseconds, digits: 0)) ms (\(Format.fixed(slowFraction * 100, digits: 0)) % "
            + "at \(Format.fixed(slowLatencyMilliseconds, digits: 0)) ms), \(bandwidth) per connection"
    }
}

import ImageCodecs

/// Running averages of what transfers (per host) and decodes cost, for ``LoadEstimate``.
///
/// Exponentially weighted, so the figures follow a network that gets slower or faster within a
/// few dozen samples while one odd transfer moves them little.
final class LoadMeter: Sendable {
    /// How much one new sample moves an average.
    private static let weight = 0.125

    private struct Average: Sendable {
        var value: Double?

        mutating func add(_ sample: Double) {
            value = value.map { $0 + LoadMeter.weight * (sample - $0) } ?? sample
        }
    }

    private struct Transfers: Sendable {
        var latency = Average()
        /// The latency the fastest responses come back in: drops to any lower sample at once and
        /// rises a sixty-fourth of the way to a higher one, so a few slow responses (which pull
        /// the average up) barely move it.
        var fastestLatency: Double?
        var bytesPerSecond = Average()
        var bytesPerImage = Average()
        var count = 0
    }

    private struct Decodes: Sendable {
        var seconds = Average()
        var secondsPerMegapixel = Average()
        var count = 0
    }

    private struct State: Sendable {
        var transfersByHost: [String: Transfers] = [:]
        var decodes = Decodes()
    }

    private let state = Lock(State())

    /// Records a whole transfer from `host`.
    ///
    /// - Parameters:
    ///   - latency: Seconds from the request to the response's headers.
    ///   - bodySeconds: Seconds from the headers to the last byte.
    ///   - bytes: The body's bytes.
    func recordTransfer(host: String, latency: Double, bodySeconds: Double, bytes: Int) {
        state.withLock { state in
            var transfers = state.transfersByHost[host, default: Transfers()]
            transfers.latency.add(latency)
            transfers.fastestLatency =
                transfers.fastestLatency.map { fastest in
                    latency < fastest ? latency : fastest + (latency - fastest) / 64
                } ?? latency
            transfers.bytesPerImage.add(Double(bytes))
            // A body that came in one read says nothing about the rate.
            if bodySeconds > 0.001, bytes > 0 { transfers.bytesPerSecond.add(Double(bytes) / bodySeconds) }
            transfers.count += 1
            state.transfersByHost[host] = transfers
        }
    }

    /// Records a decode of a source of `megapixels` that took `seconds`.
    func recordDecode(seconds: Double, megapixels: Double?) {
        state.withLock { state in
            state.decodes.seconds.add(seconds)
            if let megapixels, megapixels > 0 { state.decodes.secondsPerMegapixel.add(seconds / megapixels) }
            state.decodes.count += 1
        }
    }

    /// How soon a response from `host` may come: the latency its fastest responses come back in;
    /// nil before its first whole transfer.
    func fastestLatency(host: String) -> Double? {
        state.withLock { $0.transfersByHost[host]?.fastestLatency }
    }

    /// The averages for images from `host` (nil: no transfer, a file or a data provider).
    func estimate(host: String?) -> LoadEstimate {
        state.withLock { state in
            let transfers = host.flatMap { state.transfersByHost[$0] }
            return LoadEstimate(
                latency: transfers?.latency.value, bytesPerSecond: transfers?.bytesPerSecond.value,
                bytesPerImage: transfers?.bytesPerImage.value, decodeSeconds: state.decodes.seconds.value,
                decodeSecondsPerMegapixel: state.decodes.secondsPerMegapixel.value,
                transfers: transfers?.count ?? 0, decodes: state.decodes.count)
        }
    }
}

import Foundation
import ImageStoreTestSupport

/// The network feed with its photos as WebP: the same pixels encoded by libwebp (quality 80)
/// instead of the JPEG encoder (quality 85), served by a server of its own over the same link and
/// played by the store alone, against the store's JPEG runs: bytes sent and time to picture.
///
/// It needs libwebp's shim to encode the photos (`Scripts/build-shim.sh webp`); without it the
/// section says so and measures nothing.
struct NetworkFeedWebPVariant {
    /// The speeds played: browsing (prefetch has time) and slow (the link is the limit).
    static let speeds: [ScrollSpeed] = [.browsing, .slow]

    let profile: NetworkFeedProfile
    let network: FeedNetwork

    /// The table comparing the store's JPEG runs with its WebP runs, and the measurement
    /// warnings of the WebP runs; nil for the table when libwebp is not there.
    ///
    /// - Throws: ``HTTPServerError`` if the server cannot start.
    func run(against jpegRuns: [NetworkFeedRun], jpeg: FeedContent, seed: UInt64) throws -> (
        table: String, warnings: [String]
    ) {
        let libwebp: LibwebpShim
        switch LibwebpShim.load() {
        case .success(let shim): libwebp = shim
        case .failure(let error):
            return (
                "WebP variant not measured (Scripts/build-shim.sh webp builds the libwebp shim that encodes it): \(error)",
                []
            )
        }
        let speeds = Self.speeds.filter { speed in jpegRuns.contains { $0.speed == speed } }
        let webp = try FeedContent.generate(profile, seed: seed, photoFormat: .webp(libwebp))
        let server = try LoopbackHTTPServer(link: network.link)
        defer { server.stop() }
        webp.serve(on: server, network: network)
        let webpRuns = try NetworkFeedBenchmark(content: webp, profile: profile, server: server).run(
            speeds: speeds, strategies: [.store])

        var text = TextTable(headers: [
            "speed", "photos", "photo MiB", "MiB sent", "rows in", "no photo on appearing", "p50 ms", "p99 ms",
            "decodes",
        ])
        for speed in speeds {
            for (label, content, run) in [
                ("JPEG q85", jpeg, jpegRuns.first { $0.speed == speed && $0.strategy == .store }),
                ("WebP q80", webp, webpRuns.first { $0.speed == speed }),
            ] {
                guard let run else { continue }
                text.append([
                    speed.label, label, Format.mebibytes(content.photoBytes.reduce(0, +)),
                    Format.mebibytes(run.downloads.bodyBytes), String(run.observations.rowsScrolledIn),
                    String(run.observations.rowsScrolledInWithoutPhoto),
                    Format.fixed(run.timeToPhoto.median / 1e6, digits: 1),
                    Format.fixed(run.timeToPhoto.percentile(99) / 1e6, digits: 1), String(run.decodes),
                ])
            }
        }
        let table = [
            "Network feed, WebP variant: the same photos as WebP (libwebp, quality 80) against JPEG (the JPEG "
                + "encoder, quality 85), played by ours; photo MiB = the feed's photo bodies, one per row",
            text.rendered(),
        ].joined(separator: "\n")
        return (table, NetworkFeedGoals.measurementWarnings(webpRuns))
    }
}

import Foundation
import ImageStoreTestSupport

/// The benchmark's "network feed" section: the classic table of network pictures replayed
/// against a loopback server over a phone-like link, by every ``FeedStrategy``; prints the table,
/// writes the CSVs and the memory charts.
struct NetworkFeedSection {
    let profile: NetworkFeedProfile
    let network: FeedNetwork
    let speeds: [ScrollSpeed]
    /// The seed of the feed's pictures, the WebP variant's too.
    private static let seed: UInt64 = 0xFEED
    let outputDirectory: URL

    /// Runs the section.
    ///
    /// - Throws: ``JPEGEncoderSelfCheck/Failure`` if the JPEG encoder fails its self-check;
    ///   ``HTTPServerError`` if the server cannot start; a file-system error if the results
    ///   cannot be written.
    func run() throws -> SectionOutcome {
        let started = MonotonicClock.now()
        let startedCPU = CPUClock.process()
        let content = try FeedContent.generate(profile, seed: Self.seed)
        let server = try LoopbackHTTPServer(link: network.link)
        defer { server.stop() }
        content.serve(on: server, network: network)
        let photoBytes = content.photoBytes
        print(
            "\(profile.rowCount) rows, each an avatar PNG (\(profile.authorCount) authors) and a JPEG photo of its own "
                + "URL (\(kilobytes(photoBytes.min() ?? 0))–\(kilobytes(photoBytes.max() ?? 0)) KB, "
                + "\(Format.mebibytes(photoBytes.reduce(0, +))) MiB in all) ready in "
                + "\(Format.fixed(Double(MonotonicClock.now() - started) / 1e9, digits: 1)) s; \(network.description)")
        let runs = try NetworkFeedBenchmark(content: content, profile: profile, server: server).run(speeds: speeds)
        print(NetworkFeedPaceTable.render(runs, content: content, profile: profile) + "\n")
        let fastRuns = runs.filter { !$0.speed.isPersonPace }
        print(NetworkFeedTable.render(fastRuns, content: content, profile: profile, network: network) + "\n")

        let variant = try NetworkFeedWebPVariant(profile: profile, network: network).run(
            against: runs, jpeg: content, seed: Self.seed)
        print(variant.table + "\n")

        try FileManager.default.createDirectory(at: outputDirectory, withIntermediateDirectories: true)
        try NetworkFeedCSVWriter.write(runs, to: outputDirectory)
        try PaceChart.render(runs, section: "Network feed").write(
            to: outputDirectory.appendingPathComponent("networkfeed-paces.svg"), atomically: true, encoding: .utf8)
        for speed in speeds where !speed.isPersonPace {
            try NetworkFeedMemoryChart.render(runs.filter { $0.speed == speed }, speed: speed, network: network)
                .write(
                    to: outputDirectory.appendingPathComponent("networkfeed-\(speed.label).svg"), atomically: true,
                    encoding: .utf8)
        }
        print(
            "wrote networkfeed.csv, networkfeed-frames.csv, networkfeed-paces.svg, "
                + speeds.filter { !$0.isPersonPace }.map { "networkfeed-\($0.label).svg" }.joined(separator: ", ")
                + " to \(outputDirectory.path)/")
        let seconds = Format.fixed(Double(MonotonicClock.now() - started) / 1e9, digits: 1)
        let cpuSeconds = Format.fixed(Double(CPUClock.process() - startedCPU) / 1e9, digits: 1)
        print("network feed section: \(seconds) s wall, \(cpuSeconds) s CPU (all threads)\n")
        return SectionOutcome(
            goals: NetworkFeedGoals.evaluate(runs, content: content),
            warnings: NetworkFeedGoals.measurementWarnings(runs) + variant.warnings)
    }

    private func kilobytes(_ bytes: Int) -> String {
        String(Int((Double(bytes) / 1000).rounded()))
    }
}

import Foundation

/// The benchmark's "UI thread's view" section: builds the feed, plays it, measures the async
/// hit path beside the sync one, prints the tables and writes the CSVs and charts.
struct ScrollingSection {
    let corpus: Corpus
    let profile: ScrollingProfile
    let hitPathSamples: Int
    let outputDirectory: URL

    /// Runs the section.
    ///
    /// - Throws: A file-system error if the photos or the results cannot be written.
    func run() throws -> SectionOutcome {
        let started = MonotonicClock.now()
        let startedCPU = CPUClock.process()
        let feed = try ScrollingFeed.make(in: corpus, profile: profile)
        print(
            "\(profile.rowCount) JPEG photos of \(profile.photoSize) px (\(profile.distinctPhotoCount) distinct) ready in "
                + "\(Format.fixed(Double(MonotonicClock.now() - started) / 1e9, digits: 1)) s")
        let runs = ScrollingBenchmark(feed: feed, root: corpus.root, profile: profile).run()
        print(ScrollingTable.render(runs, feed: feed) + "\n")

        try FileManager.default.createDirectory(at: outputDirectory, withIntermediateDirectories: true)
        try ScrollingCSVWriter.write(runs, to: outputDirectory)
        for speed in ScrollSpeed.fast {
            try FrameTimeChart.render(runs.filter { $0.speed == speed }, speed: speed).write(
                to: outputDirectory.appendingPathComponent("scrolling-\(speed.label).svg"), atomically: true,
                encoding: .utf8)
        }
        print(
            "wrote scrolling.csv, scrolling-frames.csv, "
                + ScrollSpeed.fast.map { "scrolling-\($0.label).svg" }.joined(separator: ", ")
                + " to \(outputDirectory.path)/\n")

        print("ASYNC HIT PATH: ns per hit from one task, median of \(hitPathSamples) samples")
        let hitPath = AsyncHitPathBenchmark.run(root: corpus.root, samples: hitPathSamples)
        print(AsyncHitPathBenchmark.table(hitPath) + "\n")
        let seconds = Format.fixed(Double(MonotonicClock.now() - started) / 1e9, digits: 1)
        let cpuSeconds = Format.fixed(Double(CPUClock.process() - startedCPU) / 1e9, digits: 1)
        print("scrolling section: \(seconds) s wall, \(cpuSeconds) s CPU (all threads)\n")
        return SectionOutcome(
            goals: ScrollingGoals.evaluate(runs, hitPath: hitPath),
            warnings: ScrollingGoals.measurementWarnings(runs))
    }
}

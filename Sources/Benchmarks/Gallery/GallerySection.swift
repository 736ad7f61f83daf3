import Foundation

/// The benchmark's "gallery" section, the resolution swap: builds the photo grid, plays it with
/// full-size images everywhere and with thumbnails in the grid, on the default policy and under
/// a live-cost budget, prints the table and writes the CSVs and the chart.
struct GallerySection {
    /// Full size red, thumbnails green.
    private static let modeColors: [GalleryMode: String] = [.fullSize: "#d62728", .thumbnails: "#2ca02c"]

    let corpus: Corpus
    let profile: GalleryProfile
    let outputDirectory: URL

    /// Runs the section.
    ///
    /// - Throws: A file-system error if the photos or the results cannot be written.
    func run() throws -> SectionOutcome {
        let started = MonotonicClock.now()
        let startedCPU = CPUClock.process()
        let grid = try GalleryGrid.make(in: corpus, profile: profile)
        print(
            "\(profile.photoCount) JPEG photos of \(profile.photoSize) px (\(profile.distinctPhotoCount) distinct) ready in "
                + "\(Format.fixed(Double(MonotonicClock.now() - started) / 1e9, digits: 1)) s")
        let runs = GalleryBenchmark(grid: grid, root: corpus.root, profile: profile).run()
        print(GalleryTable.render(runs, grid: grid, profile: profile) + "\n")

        try FileManager.default.createDirectory(at: outputDirectory, withIntermediateDirectories: true)
        try GalleryCSVWriter.write(runs, to: outputDirectory)
        try chart(runs).write(
            to: outputDirectory.appendingPathComponent("gallery.svg"), atomically: true, encoding: .utf8)
        print("wrote gallery.csv, gallery-frames.csv, gallery.svg to \(outputDirectory.path)/")
        let seconds = Format.fixed(Double(MonotonicClock.now() - started) / 1e9, digits: 1)
        let cpuSeconds = Format.fixed(Double(CPUClock.process() - startedCPU) / 1e9, digits: 1)
        print("gallery section: \(seconds) s wall, \(cpuSeconds) s CPU (all threads)\n")
        return SectionOutcome(goals: GalleryGoals.evaluate(runs), warnings: GalleryGoals.measurementWarnings(runs))
    }

    /// The default policy's runs: the budget changes what is kept, not the UI thread's work.
    private func chart(_ runs: [GalleryRun]) -> String {
        FrameTimeChart.render(
            runs.filter { $0.liveCostLimit == nil }.map { run in
                FrameTimeChart.Series(
                    label: run.mode.label, color: Self.modeColors[run.mode] ?? "#555", run: run,
                    markedFrames: run.observations.openFrames, isEmphasized: run.mode == .thumbnails)
            },
            title: "Gallery: fling, stop, open the centred photo, go back — the UI thread's work per frame",
            subtitle: "wall-clock time of each frame's store calls at 60 fps; above the dashed line a frame is dropped",
            markLabel: "a photo opens")
    }
}

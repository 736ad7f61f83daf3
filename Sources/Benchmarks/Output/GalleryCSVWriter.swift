import Foundation

/// Writes `gallery.csv` (one row per mode and policy) and `gallery-frames.csv` (one row per frame),
/// nanoseconds and bytes unscaled.
enum GalleryCSVWriter {
    private static let summaryHeader = [
        "run", "live_cost_limit_bytes", "frames", "flings", "photos_opened", "ui_cpu_p50_ns", "ui_cpu_p99_ns",
        "ui_cpu_max_ns",
        "frames_over_budget_cpu", "frames_over_budget_wall", "open_to_shown_p50_ns", "open_to_shown_max_ns",
        "unshown_photos", "unfinished_cells", "decodes", "wasted_decodes", "stopped_decodes",
        "stopped_decode_equivalent", "failed_lookups", "peak_live_bytes",
        "peak_in_use_bytes",
        "max_duplicates", "live_bitmaps_after_release", "wall_ms",
    ]

    static func write(_ runs: [GalleryRun], to directory: URL) throws {
        var summary = [summaryHeader.joined(separator: ",")]
        var frames = ["run,frame,ui_cpu_ns,ui_wall_ns"]
        for run in runs {
            let cpu = run.cpuDistribution
            let opening = Distribution(run.observations.openToShownNanoseconds)
            let fields: [String] = [
                run.slug, run.liveCostLimit.map(String.init) ?? "", String(run.frames.count),
                String(run.observations.flingCount),
                String(run.observations.openFrames.count),
                Format.fixed(cpu.median, digits: 0), Format.fixed(cpu.percentile(99), digits: 0),
                Format.fixed(cpu.maximum, digits: 0),
                String(run.framesOverBudgetByCPU), String(run.framesOverBudgetByWall),
                Format.fixed(opening.median, digits: 0),
                Format.fixed(opening.maximum, digits: 0), String(run.observations.unshownPhotos),
                String(run.observations.unfinishedCells), String(run.session.decodes),
                String(run.wastedDecodes), String(run.session.stoppedDecodes),
                Format.fixed(run.session.stoppedDecodeEquivalent, digits: 2), String(run.failedLookups),
                String(run.session.peakLiveBytes),
                String(run.observations.peakInUseBytes),
                String(run.observations.maximumDuplicates), String(run.liveCountAfterRelease),
                Format.fixed(run.session.wallSeconds * 1000, digits: 1),
            ]
            summary.append(fields.joined(separator: ","))
            frames += run.frameCSVLines([run.slug])
        }
        try (summary.joined(separator: "\n") + "\n").write(
            to: directory.appendingPathComponent("gallery.csv"), atomically: true, encoding: .utf8)
        try (frames.joined(separator: "\n") + "\n").write(
            to: directory.appendingPathComponent("gallery-frames.csv"), atomically: true, encoding: .utf8)
    }
}

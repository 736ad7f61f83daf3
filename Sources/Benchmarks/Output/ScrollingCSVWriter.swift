import Foundation

/// Writes `scrolling.csv` (one row per speed × style) and `scrolling-frames.csv` (one row per
/// frame), nanoseconds and bytes unscaled.
enum ScrollingCSVWriter {
    private static let summaryHeader = [
        "speed", "style", "frames", "scroll_first_frame", "scroll_end_frame", "ui_cpu_p50_ns", "ui_cpu_p99_ns",
        "ui_cpu_max_ns",
        "frames_over_budget_cpu", "ui_wall_p50_ns", "ui_wall_p99_ns", "ui_wall_max_ns", "frames_over_budget_wall",
        "shown_to_set_p50_ns", "shown_to_set_p99_ns", "finished_rows", "unfinished_rows", "decodes",
        "wasted_decodes", "stopped_decodes", "stopped_decode_equivalent", "dropped_deliveries", "failed_lookups",
        "peak_live_bytes", "max_duplicates",
        "live_bitmaps_after_release", "wall_ms",
    ]

    static func write(_ runs: [ScrollingRun], to directory: URL) throws {
        var summary = [summaryHeader.joined(separator: ",")]
        var frames = ["speed,style,frame,ui_cpu_ns,ui_wall_ns"]
        for run in runs {
            let cpu = run.cpuDistribution
            let wall = run.wallDistribution
            let latency = Distribution(run.shownToSetNanoseconds)
            let fields: [String] = [
                run.speed.label, run.style.label, String(run.frames.count), String(run.scrollFrames.lowerBound),
                String(run.scrollFrames.upperBound),
                integer(cpu.median), integer(cpu.percentile(99)), integer(cpu.maximum),
                String(run.framesOverBudgetByCPU), integer(wall.median), integer(wall.percentile(99)),
                integer(wall.maximum), String(run.framesOverBudgetByWall), integer(latency.median),
                integer(latency.percentile(99)), String(run.shownToSetNanoseconds.count), String(run.unfinishedRows),
                String(run.decodes), String(run.wastedDecodes), String(run.stoppedDecodes),
                Format.fixed(run.stoppedDecodeEquivalent, digits: 2), String(run.droppedDeliveries),
                String(run.failedLookups), String(run.peakLiveBytes), String(run.maximumDuplicates),
                String(run.liveCountAfterRelease), Format.fixed(run.wallSeconds * 1000, digits: 1),
            ]
            summary.append(fields.joined(separator: ","))
            frames += run.frameCSVLines([run.speed.label, run.style.label])
        }
        try (summary.joined(separator: "\n") + "\n").write(
            to: directory.appendingPathComponent("scrolling.csv"), atomically: true, encoding: .utf8)
        try (frames.joined(separator: "\n") + "\n").write(
            to: directory.appendingPathComponent("scrolling-frames.csv"), atomically: true, encoding: .utf8)
    }

    private static func integer(_ value: Double) -> String {
        Format.fixed(value, digits: 0)
    }
}

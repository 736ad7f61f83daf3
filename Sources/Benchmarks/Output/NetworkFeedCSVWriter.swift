import Foundation

/// Writes `networkfeed.csv` (one row per speed × strategy) and `networkfeed-frames.csv` (one row
/// per frame, with the app's time and the live decoded bytes after it), nanoseconds and bytes
/// unscaled.
enum NetworkFeedCSVWriter {
    private static let summaryHeader = [
        "speed", "strategy", "frames", "frames_over_budget_cpu", "frames_over_budget_wall", "rows_shown",
        "rows_without_photo", "photo_p50_ns", "photo_p99_ns", "disk_hit_photos", "disk_hit_p99_ns", "gets",
        "aborted_gets", "distinct_urls", "body_bytes", "urls_sent_whole_twice", "refetches_after_memory_warning",
        "refetches_after_relaunch", "decodes", "wasted_decodes", "stopped_decodes", "peak_live_bytes",
        "final_live_bytes", "peak_in_use_bytes", "wrong_pictures", "dropped_deliveries", "failed_lookups",
        "memory_warning_s", "relaunch_s", "live_bitmaps_after_release", "wall_ms", "rows_scrolled_in",
        "rows_scrolled_in_without_photo", "body_bytes_for_unseen_rows",
    ]

    static func write(_ runs: [NetworkFeedRun], to directory: URL) throws {
        var summary = [summaryHeader.joined(separator: ",")]
        var frames = ["speed,strategy,frame,ui_cpu_ns,ui_wall_ns,app_s,live_bytes"]
        for run in runs {
            let observations = run.observations
            let downloads = run.downloads
            let diskHits = run.diskHitTimings
            let fields: [String] = [
                run.speed.label, run.strategy.slug, String(run.frames.count), String(run.framesOverBudgetByCPU),
                String(run.framesOverBudgetByWall), String(observations.rowsShown),
                String(observations.unfinishedRows), String(Int(run.timeToPhoto.median)),
                String(Int(run.timeToPhoto.percentile(99))), String(diskHits.count),
                diskHits.isEmpty ? "" : String(Int(Distribution(diskHits).percentile(99))), String(downloads.gets),
                String(downloads.abortedGets), String(downloads.distinctURLs), String(downloads.bodyBytes),
                String(downloads.urlsSentWholeTwice), String(downloads.refetchesAfterMemoryWarning),
                String(downloads.refetchesAfterRelaunch), String(run.decodes), String(run.wastedDecodes),
                String(run.stoppedDecodes), String(run.peakLiveBytes), String(run.finalLiveBytes),
                String(observations.peakInUseBytes), String(observations.wrongPictures),
                String(observations.droppedDeliveries), String(run.failedLookups),
                Format.fixed(observations.memoryWarningSeconds, digits: 3),
                Format.fixed(observations.relaunchSeconds, digits: 3), String(run.liveCountAfterRelease),
                Format.fixed(run.wallSeconds * 1000, digits: 1), String(observations.rowsScrolledIn),
                String(observations.rowsScrolledInWithoutPhoto), String(run.bytesSentForUnshownRows),
            ]
            summary.append(fields.joined(separator: ","))
            for (index, (frame, memory)) in zip(observations.frames, observations.memory).enumerated() {
                frames.append(
                    "\(run.speed.label),\(run.strategy.slug),\(index),\(frame.cpuNanoseconds),\(frame.wallNanoseconds),"
                        + "\(Format.fixed(memory.seconds, digits: 4)),\(memory.liveBytes)")
            }
        }
        try (summary.joined(separator: "\n") + "\n").write(
            to: directory.appendingPathComponent("networkfeed.csv"), atomically: true, encoding: .utf8)
        try (frames.joined(separator: "\n") + "\n").write(
            to: directory.appendingPathComponent("networkfeed-frames.csv"), atomically: true, encoding: .utf8)
    }
}

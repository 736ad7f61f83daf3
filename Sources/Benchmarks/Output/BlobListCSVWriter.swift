import Foundation

/// Writes `bloblist.csv` (one row per speed × strategy, the pace table's figures at the end) and
/// `bloblist-frames.csv` (one row per frame, with the blob and decoded bytes alive after it),
/// nanoseconds and bytes unscaled.
enum BlobListCSVWriter {
    private static let summaryHeader = [
        "speed", "strategy", "frames", "scroll_first_frame", "scroll_end_frame", "frames_over_budget_cpu",
        "frames_over_budget_wall", "query_ns", "first_screen_ns", "unfinished_rows", "decodes", "wasted_decodes",
        "stopped_decodes", "stopped_decode_equivalent", "failed_lookups", "blob_reads", "blob_bytes_read",
        "peak_blob_bytes", "peak_decoded_bytes", "peak_bytes", "peak_in_use_bytes", "max_duplicates",
        "live_bitmaps_after_release", "live_blob_bytes_after_release", "wall_ms", "rows_scrolled_in",
        "rows_scrolled_in_without_photo", "time_to_photo_p50_ns", "time_to_photo_p99_ns",
        "blob_bytes_read_unshown_rows", "shown_rows_blob_bytes", "peak_prefetched_not_shown_bytes",
        "peak_shown_or_prefetched_bytes", "most_rows_ahead", "seconds_per_row_estimate", "decode_seconds_estimate",
    ]

    static func write(_ runs: [BlobListRun], table: BlobTable, to directory: URL) throws {
        var summary = [summaryHeader.joined(separator: ",")]
        var frames = ["speed,strategy,frame,ui_cpu_ns,ui_wall_ns,blob_live_bytes,decoded_live_bytes"]
        for run in runs {
            let observations = run.observations
            let fields: [String] = [
                run.speed.label, run.strategy.slug, String(run.frames.count),
                String(observations.scrollFrames.lowerBound), String(observations.scrollFrames.upperBound),
                String(run.framesOverBudgetByCPU), String(run.framesOverBudgetByWall),
                String(observations.queryNanoseconds), observations.firstScreenNanoseconds.map(String.init) ?? "",
                String(observations.unfinishedRows), String(run.session.decodes), String(run.wastedDecodes),
                String(run.session.stoppedDecodes), Format.fixed(run.session.stoppedDecodeEquivalent, digits: 2),
                String(run.failedLookups), String(run.blobs.reads), String(run.blobs.bytesRead),
                String(run.blobs.peakLiveBytes), String(run.session.peakLiveBytes), String(run.peakBytes),
                String(observations.peakInUseBytes), String(observations.maximumDuplicates),
                String(run.liveCountAfterRelease), String(run.blobs.liveBytes),
                Format.fixed(run.session.wallSeconds * 1000, digits: 1), String(observations.rowsScrolledIn),
                String(observations.rowsScrolledInWithoutPhoto), String(Int(run.timeToPhoto.median)),
                String(Int(run.timeToPhoto.percentile(99))), String(run.bytesReadForUnshownRows),
                String(run.bytesOfShownRows(in: table)), String(observations.peakPrefetchedNotShownBytes),
                String(observations.peakShownOrPrefetchedBytes), String(observations.mostRowsAhead),
                Format.fixed(observations.secondsPerRowEstimate, digits: 4),
                observations.decodeSecondsEstimate.map { Format.fixed($0, digits: 4) } ?? "",
            ]
            summary.append(fields.joined(separator: ","))
            for (index, (frame, memory)) in zip(observations.frames, observations.memory).enumerated() {
                frames.append(
                    "\(run.speed.label),\(run.strategy.slug),\(index),\(frame.cpuNanoseconds),\(frame.wallNanoseconds),"
                        + "\(memory.blobBytes),\(memory.decodedBytes)")
            }
        }
        try (summary.joined(separator: "\n") + "\n").write(
            to: directory.appendingPathComponent("bloblist.csv"), atomically: true, encoding: .utf8)
        try (frames.joined(separator: "\n") + "\n").write(
            to: directory.appendingPathComponent("bloblist-frames.csv"), atomically: true, encoding: .utf8)
    }
}

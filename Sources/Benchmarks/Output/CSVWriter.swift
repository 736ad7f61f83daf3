import Foundation

/// Writes `results.csv`: one row per workload × strategy, bytes and nanoseconds unscaled.
enum CSVWriter {
    private static let header = [
        "workload", "strategy", "steps", "lookups", "distinct_images", "peak_live_bytes", "mean_live_bytes",
        "peak_in_use_bytes", "rss_at_peak_bytes", "decodes", "strategy_reported_decodes", "max_duplicates",
        "strong_hits", "weak_hits", "evictions", "small_image_decodes", "small_image_redecodes_after_warning",
        "small_image_redecodes_after_eviction", "small_image_redecodes_unexplained", "failed_lookups",
        "lookup_p50_ns", "lookup_p99_ns", "wall_ms", "live_bitmaps_after_release",
    ]

    static func write(_ reports: [WorkloadReport], to url: URL) throws {
        var lines = [header.joined(separator: ",")]
        for report in reports {
            for run in report.runs {
                let audit = run.smallImageDecodes
                let fields: [String] = [
                    report.workload.slug, run.strategy, String(report.workload.steps.count), String(run.lookups),
                    String(run.distinctImages), String(run.peakLiveBytes), Format.fixed(run.meanLiveBytes, digits: 0),
                    String(run.peakInUseBytes), run.residentBytesAtPeak.map(String.init) ?? "",
                    String(run.decodes), String(run.counters.decodes), String(run.maximumDuplicates),
                    String(run.counters.strongHits), String(run.counters.weakHits), String(run.counters.evictions),
                    String(audit.decodes), String(audit.afterWarning), String(audit.afterEviction),
                    String(audit.unexplained), String(run.failedLookups),
                    Format.fixed(run.lookupNanoseconds.median, digits: 0),
                    Format.fixed(run.lookupNanoseconds.percentile(99), digits: 0),
                    Format.fixed(run.wallSeconds * 1000, digits: 1), String(run.liveCountAfterRelease),
                ]
                lines.append(fields.map(escape).joined(separator: ","))
            }
        }
        try (lines.joined(separator: "\n") + "\n").write(to: url, atomically: true, encoding: .utf8)
    }

    /// Quotes a field holding a comma, a quote or a line break (RFC 4180).
    private static func escape(_ field: String) -> String {
        guard field.contains(where: { $0 == "," || $0 == "\"" || $0 == "\n" }) else { return field }
        return "\"" + field.replacingOccurrences(of: "\"", with: "\"\"") + "\""
    }
}

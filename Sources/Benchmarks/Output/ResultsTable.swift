/// The stdout table of one workload: one row per strategy.
enum ResultsTable {
    static func render(_ report: WorkloadReport) -> String {
        let workload = report.workload
        let floor = Double(max(report.peakInUseBytes, 1))
        let meanInUse = Double(report.inUseBytes.reduce(0, +)) / Double(max(report.inUseBytes.count, 1))
        var table = TextTable(headers: [
            "strategy", "peak MiB", "peak/in-use", "mean MiB", "RSS@peak MiB", "decodes", "dup",
            "strong hits", "weak hits", "p50 µs", "p99 µs", "wall ms",
        ])
        for run in report.runs {
            table.append([
                run.strategy,
                Format.mebibytes(run.peakLiveBytes),
                Format.ratio(Double(run.peakLiveBytes) / floor),
                Format.mebibytes(run.meanLiveBytes),
                run.residentBytesAtPeak.map(Format.mebibytes) ?? "n/a",
                String(run.decodes),
                String(run.maximumDuplicates),
                String(run.counters.strongHits),
                String(run.counters.weakHits),
                Format.microseconds(run.lookupNanoseconds.median),
                Format.microseconds(run.lookupNanoseconds.percentile(99)),
                Format.fixed(run.wallSeconds * 1000, digits: 0),
            ])
        }
        let lookups = report.runs.first?.lookups ?? 0
        var lines = [
            "\(workload.title) (\(workload.slug)): \(workload.description)",
            "  \(workload.steps.count) steps, \(lookups) lookups, \(report.runs.first?.distinctImages ?? 0) distinct images, "
                + "\(report.memoryWarningSteps.count) memory warnings; in-use floor: peak "
                + "\(Format.mebibytes(report.peakInUseBytes)) MiB, mean \(Format.mebibytes(meanInUse)) MiB",
            table.rendered(),
        ]
        for run in report.runs where run.failedLookups > 0 {
            lines.append("  ! \(run.strategy): \(run.failedLookups) lookups returned nil")
        }
        return lines.joined(separator: "\n")
    }
}

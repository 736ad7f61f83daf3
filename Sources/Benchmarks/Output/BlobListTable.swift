/// The stdout table of the blob list workload: one row per speed × strategy.
enum BlobListTable {
    static func render(_ runs: [BlobListRun], table: BlobTable, profile: BlobListProfile) -> String {
        var text = TextTable(headers: [
            "speed", "strategy", "frames", "> 16.7 ms", "query ms", "first screen ms", "unfinished rows", "decodes",
            "wasted", "stopped", "blobs read", "blob MiB read", "blob peak MiB", "decoded peak MiB", "peak MiB",
            "in use MiB", "prefetched MiB", "dup",
        ])
        for run in runs {
            let observations = run.observations
            text.append([
                run.speed.label, run.strategy.label, String(run.frames.count), String(run.framesOverBudgetByCPU),
                milliseconds(observations.queryNanoseconds),
                observations.firstScreenNanoseconds.map(milliseconds) ?? "n/a",
                String(observations.unfinishedRows), String(run.session.decodes), String(run.wastedDecodes),
                "\(run.session.stoppedDecodes) (\(Format.fixed(run.session.stoppedDecodeEquivalent, digits: 1)))",
                String(run.blobs.reads), Format.mebibytes(run.blobs.bytesRead),
                Format.mebibytes(run.blobs.peakLiveBytes), Format.mebibytes(run.session.peakLiveBytes),
                Format.mebibytes(run.peakBytes), Format.mebibytes(observations.peakInUseBytes),
                Format.mebibytes(observations.peakPrefetchedNotShownBytes), String(observations.maximumDuplicates),
            ])
        }
        var lines = [
            "Blob list: \(table.rowCount) rows in an in-process table, each a \(profile.photoSize) JPEG photo blob, "
                + "\(profile.visibleRowCount) visible; the list opens (its query runs on the UI thread), shows its "
                + "first screen, scrolls (to the end at the fast speeds, part-way at a person's pace; the pace table "
                + "below has the speeds) and waits for the last screen; cells load async with cancellation and a "
                + "ScrollPrefetcher loads ahead, default policy",
            "  eager = the query reads every row with its blob, kept while the list is open; provider + store = the "
                + "query reads ids, a provider reads a row's blob when the store needs it",
            "  first screen = from opening the list to the first screen's photos set; > 16.7 ms = frames over budget "
                + "by UI-thread CPU time; decodes, wasted and stopped as in the scrolling table",
            "  blob peak = the most blob bytes alive; decoded peak = the most live decoded bytes (Bitmap.memory); "
                + "peak = their sum (exact for eager, an upper bound otherwise); in use = the most the rows on "
                + "screen held; prefetched = the most the prefetcher held that no row on screen showed",
            text.rendered(),
        ]
        lines += runs.flatMap { run in run.blobListWarnings(context: "  ! " + run.label) }
        return lines.joined(separator: "\n")
    }

    private static func milliseconds(_ nanoseconds: UInt64) -> String {
        Format.fixed(Double(nanoseconds) / 1e6, digits: 1)
    }
}

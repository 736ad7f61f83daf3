/// The stdout table of what a person scrolling the blob list sees, one row per speed × strategy:
/// rows that came on screen without their photo, how long the photo took, and the blob bytes read
/// for rows nobody saw.
enum BlobListPaceTable {
    static func render(_ runs: [BlobListRun], table: BlobTable, profile: BlobListProfile) -> String {
        var text = TextTable(headers: [
            "speed", "strategy", "rows in", "no photo on appearing", "with photo", "p50 ms", "p99 ms",
            "MiB read for unseen rows", "read ÷ shown", "> 16.7 ms cpu", "wall", "wasted decodes", "rows ahead",
            "s per row (decode)",
        ])
        for run in runs {
            let observations = run.observations
            text.append(
                run.paceCells + [
                    Format.mebibytes(run.bytesReadForUnshownRows),
                    run.bytesOfShownRows(in: table) == 0
                        ? "–" : Format.fixed(run.readOverShown(in: table), digits: 2) + "×",
                    String(run.framesOverBudgetByCPU), String(run.framesOverBudgetByWall), String(run.wastedDecodes),
                    String(observations.mostRowsAhead),
                    Format.fixed(observations.secondsPerRowEstimate, digits: 3) + " ("
                        + (observations.decodeSecondsEstimate.map { Format.fixed($0, digits: 3) } ?? "–") + ")",
                ])
        }
        return [
            "Blob list at every pace: "
                + ScrollSpeed.allCases.map { "\($0.label) = \($0.pace)" }.joined(separator: ", ")
                + "; reading and browsing scroll down \(profile.distance.readingRows) and \(profile.distance.browsingRows) rows after "
                + "a \(Format.fixed(profile.firstLookSeconds, digits: 1)) s look at the first screen, the fast "
                + "speeds to the end at once",
            "  rows in = rows the scroll brought on screen (not the first screen); no photo on appearing = of those, "
                + "rows whose photo was not there in the frame they appeared; p50/p99 = row shown → photo set; "
                + "unseen rows = blobs read for rows that never appeared (by the query or the prefetcher); read ÷ "
                + "shown = all blob bytes read ÷ the blob bytes of the rows shown, each row once; rows ahead = the "
                + "most rows the prefetcher's plan loaded ahead of the screen; s per row = the store's "
                + "loadEstimate(for:).secondsToImage() when the scroll ended, which the plan uses (a provider's read "
                + "is part of the decode's time: no transfer), and its measured decode part",
            text.rendered(),
        ].joined(separator: "\n")
    }
}

/// The stdout table of what a person scrolling the network feed sees, one row per speed ×
/// strategy: rows that came on screen without their photo, how long the photo took, and the
/// bytes spent on rows nobody saw.
enum NetworkFeedPaceTable {
    static func render(_ runs: [NetworkFeedRun], content: FeedContent, profile: NetworkFeedProfile) -> String {
        var text = TextTable(headers: [
            "speed", "strategy", "rows in", "no photo on appearing", "with photo", "p50 ms", "p99 ms",
            "MiB for unseen rows", "sent ÷ shown", "> 16.7 ms cpu", "wall", "wasted decodes",
        ])
        for run in runs {
            let shown = run.bytesOfShownPictures(in: content)
            text.append(
                run.paceCells + [
                    Format.mebibytes(run.bytesSentForUnshownRows),
                    shown == 0 ? "–" : Format.fixed(Double(run.downloads.bodyBytes) / Double(shown), digits: 2) + "×",
                    String(run.framesOverBudgetByCPU), String(run.framesOverBudgetByWall), String(run.wastedDecodes),
                ])
        }
        return [
            "Network feed at every pace: "
                + ScrollSpeed.allCases.map { "\($0.label) = \($0.pace)" }.joined(
                    separator: ", ")
                + "; reading and browsing scroll down \(profile.distance.readingRows) and \(profile.distance.browsingRows) rows once, "
                + "the fast speeds play the whole script below",
            "  rows in = rows the scroll brought on screen (not the first screen); no photo on appearing = of those, "
                + "rows whose photo was not there in the frame they appeared; p50/p99 = row shown → photo set; "
                + "unseen rows = pictures of rows that never appeared; sent ÷ shown = all bytes the server sent ÷ "
                + "the bytes of the pictures of the rows shown, each URL once",
            text.rendered(),
        ].joined(separator: "\n")
    }
}

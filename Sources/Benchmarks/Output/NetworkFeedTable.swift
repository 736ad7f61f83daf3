/// The stdout table of the network feed: one row per speed × strategy.
enum NetworkFeedTable {
    static func render(
        _ runs: [NetworkFeedRun], content: FeedContent, profile: NetworkFeedProfile, network: FeedNetwork
    ) -> String {
        var text = TextTable(headers: [
            "speed", "strategy", "frames", "> 16.7 ms cpu", "wall", "rows", "no photo", "p50 ms", "p99 ms",
            "disk p99 ms (n)", "GETs", "cut", "URLs", "MiB sent", "again warn", "again relaunch", "decodes", "wasted",
            "peak MiB", "final MiB", "in use MiB", "wrong",
        ])
        for run in runs {
            let observations = run.observations
            let diskHits = run.diskHitTimings
            let downloads = run.downloads
            text.append([
                run.speed.label, run.strategy.label, String(run.frames.count), String(run.framesOverBudgetByCPU),
                String(run.framesOverBudgetByWall), String(observations.rowsShown),
                String(observations.unfinishedRows), milliseconds(run.timeToPhoto.median),
                milliseconds(run.timeToPhoto.percentile(99)),
                diskHits.isEmpty
                    ? "–" : "\(milliseconds(Distribution(diskHits).percentile(99))) (\(diskHits.count))",
                String(downloads.gets), String(downloads.abortedGets), String(downloads.distinctURLs),
                Format.mebibytes(downloads.bodyBytes), String(downloads.refetchesAfterMemoryWarning),
                String(downloads.refetchesAfterRelaunch), String(run.decodes), String(run.wastedDecodes),
                Format.mebibytes(run.peakLiveBytes), Format.mebibytes(run.finalLiveBytes),
                Format.mebibytes(observations.peakInUseBytes), String(observations.wrongPictures),
            ])
        }
        var lines = [
            "Network feed: \(profile.rowCount) rows (avatar PNG + JPEG photo, \(content.targetCount) URLs), "
                + "\(profile.visibleRowCount) visible, from a loopback server: \(network.description). Script: first "
                + "screen, scroll down (memory warning half-way), back to the top, relaunch (new loader, same "
                + "folders, memory empty), down again; \(Format.fixed(profile.settleSeconds, digits: 2)) s of frames "
                + "after each; the scroll follows the clock (slow = 1 row a frame, fling = 5), so a blocked frame "
                + "skips rows",
            "  > 16.7 ms = frames over budget by UI-thread CPU time, then by the wall clock (a synchronous download "
                + "waits off the CPU); rows = rows shown; no photo = rows that left without their photo; p50/p99 = "
                + "row shown → photo set; disk = the same after the relaunch for photos not fetched again",
            "  GETs, cut (abandoned by the client before the body's end), URLs (distinct) and MiB sent are the "
                + "server's counters; again = URLs sent whole before the memory warning / relaunch and sent whole "
                + "again after it; wasted = decodes never set where they belonged; peak/final = live decoded bytes; "
                + "in use = the most the rows on screen (and ours' prefetch) held; wrong = pictures set into a cell "
                + "that by then showed another URL",
            "  ours = the store on the default policy, 6 downloads at once, a DiskImageCache in the run's folder "
                + "(150 MiB): memory, then disk, then the network; a transfer cut on reuse resumes with Range",
            "  URLCache + NSCache on Linux: swift-corelibs-foundation's URLCache stores nothing (and can answer "
                + "a query-blind match), so its misses all go to the network here; on Apple platforms its disk "
                + "cache would answer many of them, after the relaunch too",
            text.rendered(),
        ]
        lines += runs.flatMap { run in run.measurementWarnings(context: "  ! " + run.label) }
        return lines.joined(separator: "\n")
    }

    private static func milliseconds(_ nanoseconds: Double) -> String {
        Format.fixed(nanoseconds / 1e6, digits: 1)
    }
}

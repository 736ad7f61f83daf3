/// The stdout table of the scrolling workload: one row per speed × loading style.
enum ScrollingTable {
    static func render(_ runs: [ScrollingRun], feed: ScrollingFeed) -> String {
        var table = TextTable(headers: [
            "speed", "style", "frames", "UI p50 µs", "UI p99 µs", "UI max ms", "> 16.7 ms", "wall > 16.7",
            "wall max ms", "shown→set p50 ms", "p99 ms", "unfinished rows", "decodes", "wasted", "stopped", "peak MiB",
            "dup",
        ])
        for run in runs {
            let cpu = run.cpuDistribution
            let latency = Distribution(run.shownToSetNanoseconds)
            table.append([
                run.speed.label, run.style.label, String(run.frames.count),
                Format.microseconds(cpu.median), Format.microseconds(cpu.percentile(99)),
                Format.fixed(cpu.maximum / 1e6, digits: 2), String(run.framesOverBudgetByCPU),
                String(run.framesOverBudgetByWall), Format.fixed(run.wallDistribution.maximum / 1e6, digits: 2),
                run.shownToSetNanoseconds.isEmpty ? "n/a" : Format.fixed(latency.median / 1e6, digits: 1),
                run.shownToSetNanoseconds.isEmpty ? "n/a" : Format.fixed(latency.percentile(99) / 1e6, digits: 1),
                String(run.unfinishedRows), String(run.decodes), String(run.wastedDecodes),
                "\(run.stoppedDecodes) (\(Format.fixed(run.stoppedDecodeEquivalent, digits: 1)))",
                Format.mebibytes(run.peakLiveBytes), String(run.maximumDuplicates),
            ])
        }
        let photo = feed.rows.first?.last ?? "photo"
        var lines = [
            "Scrolling (scrolling-slow.svg, scrolling-fling.svg): \(feed.rows.count) rows, \(feed.visibleRowCount) "
                + "visible, each an avatar, 2-3 icons and its own photo (\(photo), …); slow = 1 row a frame, "
                + "fling = 5 rows a frame, then frames until the last screen has its images",
            "  UI = the UI thread's CPU time per frame in store calls, task creation, cancellation and setting "
                + "images; > 16.7 ms = frames over budget by it, wall = the same by the wall clock",
            "  decodes = run to the end; wasted = of those, never set on a row on screen; stopped = stopped "
                + "part-way when their rows left (in brackets: their work, in average decodes)",
            table.rendered(),
        ]
        lines += runs.flatMap { run in
            run.measurementWarnings(context: "  ! " + "\(run.speed.label) / \(run.style.label)")
        }
        return lines.joined(separator: "\n")
    }
}

/// The stdout table of the gallery workload: one row per mode and policy.
enum GalleryTable {
    static func render(_ runs: [GalleryRun], grid: GalleryGrid, profile: GalleryProfile) -> String {
        var table = TextTable(headers: [
            "mode", "frames", "UI p50 µs", "UI p99 µs", "UI max ms", "> 16.7 ms", "wall > 16.7", "flings",
            "open→shown p50 ms", "max ms", "unfinished cells", "decodes", "wasted", "stopped", "peak MiB", "in use MiB",
            "dup",
        ])
        for run in runs {
            let cpu = run.cpuDistribution
            let opening = Distribution(run.observations.openToShownNanoseconds)
            table.append([
                run.label, String(run.frames.count), Format.microseconds(cpu.median),
                Format.microseconds(cpu.percentile(99)), Format.fixed(cpu.maximum / 1e6, digits: 2),
                String(run.framesOverBudgetByCPU), String(run.framesOverBudgetByWall),
                String(run.observations.flingCount),
                run.observations.openToShownNanoseconds.isEmpty ? "n/a" : Format.fixed(opening.median / 1e6, digits: 1),
                run.observations.openToShownNanoseconds.isEmpty
                    ? "n/a" : Format.fixed(opening.maximum / 1e6, digits: 1),
                String(run.observations.unfinishedCells), String(run.session.decodes), String(run.wastedDecodes),
                "\(run.session.stoppedDecodes) (\(Format.fixed(run.session.stoppedDecodeEquivalent, digits: 1)))",
                Format.mebibytes(run.session.peakLiveBytes),
                Format.mebibytes(run.observations.peakInUseBytes), String(run.observations.maximumDuplicates),
            ])
        }
        var lines = [
            "Gallery (gallery.svg): \(grid.photos.count) photos of \(profile.photoSize) px in \(grid.columnCount) "
                + "columns, \(grid.visibleRowCount) rows visible; fling \(profile.flingRowCount) rows at "
                + "\(profile.rowsPerFrame) a frame, stop, open the centred photo full size for "
                + "\(profile.detailFrameCount) frames, go back, repeat; thumbnails = \(profile.thumbnailPixelSize) px "
                + "in the grid, all async with cancellation; each mode on the default policy and under a "
                + "\(Format.mebibytes(GalleryBenchmark.liveCostLimit)) MiB live-cost budget",
            "  UI = the UI thread's CPU time per frame; open→shown = from opening a photo to its full-size image set; "
                + "peak = live decoded bytes (Bitmap.memory), in use = the most the cells and the opened photo held; "
                + "decodes, wasted and stopped as in the scrolling table",
            table.rendered(),
        ]
        lines += runs.flatMap { run in run.measurementWarnings(context: "  ! " + run.label) }
        return lines.joined(separator: "\n")
    }
}

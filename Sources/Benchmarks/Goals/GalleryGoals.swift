/// The goals of the gallery workload (issue "size-aware images", the resolution swap), judged
/// on this run.
enum GalleryGoals {
    /// Thumbnails in the grid may keep at most this fraction of full size everywhere's peak.
    private static let peakFractionLimit = 0.10

    /// The peak goal is judged with the live-cost budget on both modes: on the default policy the
    /// LRU keeps up to 16 MiB of thumbnails (they are small, so it should) on top of what the
    /// screen holds, which the line reports too.
    static func evaluate(_ runs: [GalleryRun]) -> [GoalCheck] {
        var checks: [GoalCheck] = []
        if let thumbnails = run(runs, .thumbnails, budgeted: true),
            let fullSize = run(runs, .fullSize, budgeted: true)
        {
            let fraction = peakFraction(thumbnails, of: fullSize)
            var statement =
                "gallery: thumbnails peak ≤ 1/10 of full size everywhere, "
                + "\(Format.mebibytes(GalleryBenchmark.liveCostLimit)) MiB budget on both: "
                + "\(Format.mebibytes(thumbnails.session.peakLiveBytes)) vs "
                + "\(Format.mebibytes(fullSize.session.peakLiveBytes)) MiB (\(Format.fixed(100 * fraction, digits: 1)) %)"
            if let defaultThumbnails = run(runs, .thumbnails, budgeted: false),
                let defaultFullSize = run(runs, .fullSize, budgeted: false)
            {
                statement +=
                    "; default policy \(Format.mebibytes(defaultThumbnails.session.peakLiveBytes)) vs "
                    + "\(Format.mebibytes(defaultFullSize.session.peakLiveBytes)) MiB "
                    + "(\(Format.fixed(100 * peakFraction(defaultThumbnails, of: defaultFullSize), digits: 1)) %, "
                    + "the screen itself \(Format.mebibytes(defaultThumbnails.observations.peakInUseBytes)) MiB)"
            }
            checks.append(
                GoalCheck(passed: fraction <= peakFractionLimit, statement: statement, needsFullRunSizes: true))
        }
        for run in runs {
            checks.append(
                GoalCheck(
                    passed: run.framesOverBudgetByCPU == 0,
                    statement: "gallery, \(run.label): 0 frames over budget: \(run.framesOverBudgetByCPU) of "
                        + "\(run.frames.count) over 16.7 ms by UI-thread CPU time (wall clock: "
                        + "\(run.framesOverBudgetByWall))", isTiming: true))
        }
        let duplicates = runs.map(\.observations.maximumDuplicates).max() ?? 0
        checks.append(
            GoalCheck(
                passed: duplicates == 0,
                statement: "gallery: no duplicates in any run: at most \(duplicates) duplicate instances"))
        return checks
    }

    /// Problems with the measurement itself: leaks between runs, failed lookups, photos that
    /// never arrived.
    static func measurementWarnings(_ runs: [GalleryRun]) -> [String] {
        runs.flatMap { run in
            let context = "gallery / \(run.label)"
            let unshown = run.observations.unshownPhotos
            return run.measurementWarnings(context: context)
                + (unshown > 0 ? ["\(context): \(unshown) opened photos did not arrive in time"] : [])
        }
    }

    private static func run(_ runs: [GalleryRun], _ mode: GalleryMode, budgeted: Bool) -> GalleryRun? {
        runs.first { $0.mode == mode && ($0.liveCostLimit != nil) == budgeted }
    }

    private static func peakFraction(_ run: GalleryRun, of baseline: GalleryRun) -> Double {
        baseline.session.peakLiveBytes == 0
            ? 1 : Double(run.session.peakLiveBytes) / Double(baseline.session.peakLiveBytes)
    }
}

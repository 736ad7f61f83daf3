/// The goals of the gallery workload (issue "size-aware images", the resolution swap), judged
/// on this run.
enum GalleryGoals {
    /// Thumbnails in the grid may keep at most this fraction of full size everywhere's peak.
    private static let peakFractionLimit = 0.10

    static func evaluate(_ runs: [GalleryRun]) -> [GoalCheck] {
        var checks: [GoalCheck] = []
        if let thumbnails = run(runs, .thumbnails), let fullSize = run(runs, .fullSize) {
            let fraction =
                fullSize.peakLiveBytes == 0
                ? 1 : Double(thumbnails.peakLiveBytes) / Double(fullSize.peakLiveBytes)
            checks.append(
                GoalCheck(
                    passed: fraction <= peakFractionLimit,
                    statement: "gallery: thumbnails peak ≤ 1/10 of full size everywhere: "
                        + "\(Format.mebibytes(thumbnails.peakLiveBytes)) vs \(Format.mebibytes(fullSize.peakLiveBytes)) MiB "
                        + "(\(Format.fixed(100 * fraction, digits: 1)) %)"))
        }
        for run in runs {
            checks.append(
                GoalCheck(
                    passed: run.framesOverBudgetByCPU == 0,
                    statement: "gallery, \(run.mode.label): 0 frames over budget: \(run.framesOverBudgetByCPU) of "
                        + "\(run.frames.count) over 16.7 ms by UI-thread CPU time (wall clock: "
                        + "\(run.framesOverBudgetByWall))"))
        }
        let duplicates = runs.map(\.maximumDuplicates).max() ?? 0
        checks.append(
            GoalCheck(
                passed: duplicates == 0,
                statement: "gallery: no duplicates in either mode: at most \(duplicates) duplicate instances"))
        return checks
    }

    /// Problems with the measurement itself: leaks between runs, failed lookups, photos that
    /// never arrived.
    static func measurementWarnings(_ runs: [GalleryRun]) -> [String] {
        runs.flatMap { run -> [String] in
            let context = "gallery / \(run.mode.label)"
            var warnings: [String] = []
            if run.liveCountAfterRelease != 0 {
                warnings.append(
                    "\(context): \(run.liveCountAfterRelease) bitmaps still alive after releasing everything")
            }
            if run.failedLookups > 0 { warnings.append("\(context): \(run.failedLookups) lookups failed") }
            if run.unshownPhotos > 0 {
                warnings.append("\(context): \(run.unshownPhotos) opened photos did not arrive in time")
            }
            return warnings
        }
    }

    private static func run(_ runs: [GalleryRun], _ mode: GalleryMode) -> GalleryRun? {
        runs.first { $0.mode == mode }
    }
}

/// The goals of the gallery workload (issue "size-aware images", the resolution swap), judged
/// on this run.
enum GalleryGoals {
    /// Thumbnails in the grid may keep at most this fraction of full size everywhere's peak.
    private static let peakFractionLimit = 0.10

    static func evaluate(_ runs: [GalleryRun]) -> [GoalCheck] {
        var checks: [GoalCheck] = []
        if let thumbnails = run(runs, .thumbnails), let fullSize = run(runs, .fullSize) {
            let fraction =
                fullSize.session.peakLiveBytes == 0
                ? 1 : Double(thumbnails.session.peakLiveBytes) / Double(fullSize.session.peakLiveBytes)
            checks.append(
                GoalCheck(
                    passed: fraction <= peakFractionLimit,
                    statement: "gallery: thumbnails peak ≤ 1/10 of full size everywhere: "
                        + "\(Format.mebibytes(thumbnails.session.peakLiveBytes)) vs \(Format.mebibytes(fullSize.session.peakLiveBytes)) MiB "
                        + "(\(Format.fixed(100 * fraction, digits: 1)) %; the screen itself held "
                        + "\(Format.mebibytes(thumbnails.observations.peakInUseBytes)) vs "
                        + "\(Format.mebibytes(fullSize.observations.peakInUseBytes)) MiB)"))
        }
        for run in runs {
            checks.append(
                GoalCheck(
                    passed: run.framesOverBudgetByCPU == 0,
                    statement: "gallery, \(run.mode.label): 0 frames over budget: \(run.framesOverBudgetByCPU) of "
                        + "\(run.frames.count) over 16.7 ms by UI-thread CPU time (wall clock: "
                        + "\(run.framesOverBudgetByWall))"))
        }
        let duplicates = runs.map(\.observations.maximumDuplicates).max() ?? 0
        checks.append(
            GoalCheck(
                passed: duplicates == 0,
                statement: "gallery: no duplicates in either mode: at most \(duplicates) duplicate instances"))
        return checks
    }

    /// Problems with the measurement itself: leaks between runs, failed lookups, photos that
    /// never arrived.
    static func measurementWarnings(_ runs: [GalleryRun]) -> [String] {
        runs.flatMap { run in
            let context = "gallery / \(run.mode.label)"
            let unshown = run.observations.unshownPhotos
            return run.measurementWarnings(context: context)
                + (unshown > 0 ? ["\(context): \(unshown) opened photos did not arrive in time"] : [])
        }
    }

    private static func run(_ runs: [GalleryRun], _ mode: GalleryMode) -> GalleryRun? {
        runs.first { $0.mode == mode }
    }
}

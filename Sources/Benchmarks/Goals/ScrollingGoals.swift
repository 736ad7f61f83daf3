/// The goals of the scrolling workload (issue "the UI thread's view"), judged on this run.
enum ScrollingGoals {
    /// Async may waste at most this fraction of the decoding GCD wastes at fling speed.
    private static let wastedDecodeFractionLimit = 0.10
    /// An async hit may take at most this many times a synchronous hit.
    private static let asyncHitRatioLimit = 1.5

    static func evaluate(_ runs: [ScrollingRun], hitPath: AsyncHitPathBenchmark.Results) -> [GoalCheck] {
        var checks: [GoalCheck] = []
        for speed in ScrollSpeed.fast {
            guard let async = run(runs, .async, speed) else { continue }
            checks.append(
                GoalCheck(
                    passed: async.framesOverBudgetByCPU == 0,
                    statement: "scrolling \(speed.label): async drops 0 frames: \(async.framesOverBudgetByCPU) of "
                        + "\(async.frames.count) over 16.7 ms by UI-thread CPU time (wall clock: "
                        + "\(async.framesOverBudgetByWall); sync \(run(runs, .sync, speed)?.framesOverBudgetByCPU ?? 0), "
                        + "GCD \(run(runs, .gcd, speed)?.framesOverBudgetByCPU ?? 0))", isTiming: true))
        }
        if let async = run(runs, .async, .fling), let gcd = run(runs, .gcd, .fling) {
            // Stopped decodes count by the work they did before stopping; GCD's never stop.
            let limit = wastedDecodeFractionLimit * gcd.wastedDecoding
            checks.append(
                GoalCheck(
                    passed: async.wastedDecoding <= limit,
                    statement:
                        "scrolling fling: async wastes ≤ 10 % of GCD's wasted decodes: "
                        + "\(Format.fixed(async.wastedDecoding, digits: 1)) vs \(Format.fixed(gcd.wastedDecoding, digits: 1)) "
                        + "(\(percent(async.wastedDecoding, of: gcd.wastedDecoding))): \(async.wastedDecodes) unused + "
                        + "\(async.stoppedDecodes) stopped part-way (\(Format.fixed(async.stoppedDecodeEquivalent, digits: 1)) "
                        + "decodes' work)",
                    // A ratio of decoding work that moves with the decoder's speed against the
                    // 60 fps clock and with the machine's load: not a count CI can gate on.
                    needsFullRunSizes: true, isTiming: true))
        }
        let ratio = hitPath.ratio
        checks.append(
            GoalCheck(
                passed: ratio <= asyncHitRatioLimit,
                statement: "async hit ≤ 1.5× the sync hit: \(Format.fixed(hitPath.async.median, digits: 1)) vs "
                    + "\(Format.fixed(hitPath.sync.median, digits: 1)) ns (\(Format.ratio(ratio)))", isTiming: true))
        let duplicates = runs.map(\.maximumDuplicates).max() ?? 0
        checks.append(
            GoalCheck(
                passed: duplicates == 0,
                statement:
                    "scrolling: no duplicates in any style at any speed: at most \(duplicates) duplicate instances"
            ))
        return checks
    }

    /// Problems with the measurement itself: leaks between runs, failed lookups.
    static func measurementWarnings(_ runs: [ScrollingRun]) -> [String] {
        runs.flatMap { run in run.measurementWarnings(context: "scrolling \(run.speed.label) / \(run.style.label)") }
    }

    private static func run(_ runs: [ScrollingRun], _ style: LoadingStyle, _ speed: ScrollSpeed) -> ScrollingRun? {
        runs.first { $0.style == style && $0.speed == speed }
    }

    private static func percent(_ part: Double, of whole: Double) -> String {
        whole == 0 ? "n/a" : Format.fixed(100 * part / whole, digits: 1) + " %"
    }
}

import Foundation

/// The goals of the blob list workload (issue 19, "blob list"), judged on this run.
enum BlobListGoals {
    /// The store's loading threads: `maximumConcurrentLoads`, which ``UIThreadSession`` leaves at
    /// its default, one per active processor. Each reads at most one blob at a time.
    static var loadingThreadCount: Int { ProcessInfo.processInfo.activeProcessorCount }

    /// Per speed, provider + store's peak (blobs + decoded) against what the rows on screen held,
    /// the LRU's limit and one blob per loading thread; then duplicates in any run.
    static func evaluate(_ runs: [BlobListRun], largestBlobBytes: Int) -> [GoalCheck] {
        let lruCostLimit = DefaultPolicyLimits.current.costLimit
        var checks: [GoalCheck] = []
        for speed in ScrollSpeed.fast {
            guard let ours = run(runs, .providerAndStore, speed) else { continue }
            let inUse = ours.observations.peakInUseBytes
            let bound = inUse + lruCostLimit + loadingThreadCount * largestBlobBytes
            let eager = run(runs, .eager, speed).map { "; eager \(Format.mebibytes($0.peakBytes)) MiB" } ?? ""
            checks.append(
                GoalCheck(
                    passed: ours.peakBytes <= bound,
                    statement: "blob list \(speed.label): provider + store peak ≤ visible rows' images + LRU limit + "
                        + "one blob per loading thread: \(Format.mebibytes(ours.peakBytes)) ≤ "
                        + "\(Format.mebibytes(inUse)) + \(Format.mebibytes(lruCostLimit)) + "
                        + "\(loadingThreadCount) × \(Format.mebibytes(largestBlobBytes)) MiB (blobs "
                        + "\(Format.mebibytes(ours.blobs.peakLiveBytes)) + decoded "
                        + "\(Format.mebibytes(ours.session.peakLiveBytes)))\(eager)"))
        }
        let duplicates = runs.map(\.observations.maximumDuplicates).max() ?? 0
        checks.append(
            GoalCheck(
                passed: duplicates == 0,
                statement: "blob list: no duplicates in any run: at most \(duplicates) duplicate instances"))
        return checks
    }

    /// Problems with the measurement itself: leaks, failed lookups, a first screen that never
    /// arrived.
    static func measurementWarnings(_ runs: [BlobListRun]) -> [String] {
        runs.flatMap { run in
            let context = "blob list / \(run.label)"
            return run.blobListWarnings(context: context)
                + (run.observations.firstScreenNanoseconds == nil
                    ? ["\(context): the first screen's photos did not all arrive in time"] : [])
        }
    }

    private static func run(_ runs: [BlobListRun], _ strategy: BlobListStrategy, _ speed: ScrollSpeed) -> BlobListRun? {
        runs.first { $0.strategy == strategy && $0.speed == speed }
    }
}

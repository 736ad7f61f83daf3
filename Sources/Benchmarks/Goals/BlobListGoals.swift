import Foundation

/// The goals of the blob list workload (issue 19, "blob list"), judged on this run.
enum BlobListGoals {
    /// The store's loading threads: `maximumConcurrentLoads`, which ``UIThreadSession`` leaves at
    /// its default, one per active processor, and the visible lane, which runs a cell's load while
    /// it pauses a prefetch (the paused one keeps its blob and its half-made image). Each holds at
    /// most one blob and one image being decoded.
    static var loadingThreadCount: Int { ProcessInfo.processInfo.activeProcessorCount + 1 }

    /// Per speed, provider + store's peak (blobs + decoded) against what the rows on screen and
    /// the prefetcher held, the LRU's limit and what the loading threads hold; duplicates in any
    /// run; at a person's pace, photos on appearing and blob bytes read.
    static func evaluate(_ runs: [BlobListRun], table: BlobTable) -> [GoalCheck] {
        let lruCostLimit = DefaultPolicyLimits.current.costLimit
        let largestBlobBytes = table.largestBlobBytes
        var checks: [GoalCheck] = []
        for speed in ScrollSpeed.allCases {
            guard let ours = run(runs, .providerAndStore, speed) else { continue }
            let observations = ours.observations
            let held = observations.peakShownOrPrefetchedBytes
            let image = observations.largestImageBytes
            let bound = held + lruCostLimit + loadingThreadCount * (largestBlobBytes + image)
            let eager = run(runs, .eager, speed).map { "; eager \(Format.mebibytes($0.peakBytes)) MiB" } ?? ""
            checks.append(
                GoalCheck(
                    passed: ours.peakBytes <= bound,
                    statement: "blob list \(speed.label): provider + store peak ≤ the images the visible rows and "
                        + "the prefetcher held (the most at once, each image once, sampled at each frame's tick and "
                        + "after its work) + LRU limit + one blob and one image being decoded per loading thread "
                        + "(the visible lane included): \(Format.mebibytes(ours.peakBytes)) ≤ "
                        + "\(Format.mebibytes(held)) + \(Format.mebibytes(lruCostLimit)) + \(loadingThreadCount) × "
                        + "(\(Format.mebibytes(largestBlobBytes)) + \(Format.mebibytes(image))) MiB (blobs \(Format.mebibytes(ours.blobs.peakLiveBytes)) "
                        + "+ decoded \(Format.mebibytes(ours.session.peakLiveBytes)); visible rows at most "
                        + "\(Format.mebibytes(observations.peakInUseBytes)), the prefetcher's rows not shown at most "
                        + "\(Format.mebibytes(observations.peakPrefetchedNotShownBytes)))\(eager)"))
        }
        let duplicates = runs.map(\.observations.maximumDuplicates).max() ?? 0
        checks.append(
            GoalCheck(
                passed: duplicates == 0,
                statement: "blob list: no duplicates in any run: at most \(duplicates) duplicate instances"))
        return checks + personPaceChecks(runs, table: table)
    }

    /// At reading and browsing speed (issue 38): provider + store shows ≥ 99 % of the rows the
    /// scroll brings on screen with their photo in the frame they appear, reading at most 1.25×
    /// the blob bytes of the rows shown. Both depend on the prefetcher's timing (the scroll's
    /// measured speed, the store's measured load times), as the network feed's do.
    private static func personPaceChecks(_ runs: [BlobListRun], table: BlobTable) -> [GoalCheck] {
        ScrollSpeed.allCases.filter(\.isPersonPace).flatMap { speed -> [GoalCheck] in
            guard let ours = run(runs, .providerAndStore, speed) else { return [] }
            let eager = run(runs, .eager, speed)
            let observations = ours.observations
            let ratio = ours.readOverShown(in: table)
            let eagerPhotos = eager.map {
                "; eager \(Format.fixed(100 * $0.shareWithPhotoOnAppearing, digits: 1)) % "
                    + "(\($0.observations.rowsScrolledInWithoutPhoto) of \($0.observations.rowsScrolledIn) without)"
            }
            let eagerBytes = eager.map {
                "; eager \(Format.fixed($0.readOverShown(in: table), digits: 2))×, the query reads every row"
            }
            return [
                GoalCheck(
                    passed: ours.shareWithPhotoOnAppearing >= 0.99,
                    statement: "blob list \(speed.label): provider + store shows ≥ 99 % of the rows scrolled in with "
                        + "their photo in the frame they appear: "
                        + "\(Format.fixed(100 * ours.shareWithPhotoOnAppearing, digits: 1)) % "
                        + "(\(observations.rowsScrolledInWithoutPhoto) of \(observations.rowsScrolledIn) without)"
                        + (eagerPhotos ?? ""),
                    isTiming: true),
                GoalCheck(
                    passed: ratio <= 1.25,
                    statement: "blob list \(speed.label): provider + store reads ≤ 1.25× the blob bytes of the rows "
                        + "shown: \(Format.fixed(ratio, digits: 2))× (\(Format.mebibytes(ours.blobs.bytesRead)) of "
                        + "\(Format.mebibytes(ours.bytesOfShownRows(in: table))) MiB; "
                        + "\(Format.mebibytes(ours.bytesReadForUnshownRows)) MiB for rows that never appeared)"
                        + (eagerBytes ?? ""),
                    isTiming: true),
            ]
        }
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

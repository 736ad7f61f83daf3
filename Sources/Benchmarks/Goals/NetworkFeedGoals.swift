import Foundation

/// The goals of the network feed (issue 22), judged on the library's runs ("ours").
enum NetworkFeedGoals {
    /// The store's loading threads: `maximumConcurrentLoads`, left at its default, one per
    /// active processor. Each holds at most one picture nobody can use yet.
    static var loadingThreadCount: Int { ProcessInfo.processInfo.activeProcessorCount }

    static func evaluate(_ runs: [NetworkFeedRun], content: FeedContent) -> [GoalCheck] {
        var checks: [GoalCheck] = []
        for speed in ScrollSpeed.fast {
            guard let ours = run(runs, .store, speed) else { continue }
            let others = FeedStrategy.allCases.filter { $0 != .store }.compactMap { run(runs, $0, speed) }.map {
                "\($0.strategy.label) \($0.framesOverBudgetByCPU)/\($0.framesOverBudgetByWall)"
            }
            checks.append(
                GoalCheck(
                    passed: ours.framesOverBudgetByCPU == 0,
                    statement: "network feed \(speed.label): ours drops 0 frames: \(ours.framesOverBudgetByCPU) of "
                        + "\(ours.frames.count) over 16.7 ms by UI-thread CPU time (wall clock: "
                        + "\(ours.framesOverBudgetByWall); others cpu/wall: \(others.joined(separator: ", ")))",
                    isTiming: true))
        }
        let oursRuns = runs.filter(\.strategy.isStore)
        let wrong = oursRuns.map(\.observations.wrongPictures).reduce(0, +)
        let othersWrong = FeedStrategy.allCases.filter { !$0.isStore }.map { strategy in
            "\(strategy.label) \(runs.filter { $0.strategy == strategy }.map(\.observations.wrongPictures).reduce(0, +))"
        }
        checks.append(
            GoalCheck(
                passed: wrong == 0,
                statement: "network feed: 0 wrong pictures (a picture set into a cell showing another URL): ours "
                    + "\(wrong) in \(oursRuns.count) runs (others: \(othersWrong.joined(separator: ", ")))"))
        for speed in ScrollSpeed.fast {
            guard let ours = run(runs, .store, speed) else { continue }
            let downloads = ours.downloads
            checks.append(
                GoalCheck(
                    passed: downloads.urlsSentWholeTwice == 0,
                    statement: "network feed \(speed.label): ours downloads every URL once across the memory warning "
                        + "and the relaunch: \(downloads.urlsSentWholeTwice) URLs sent whole twice (again after "
                        + "the warning \(downloads.refetchesAfterMemoryWarning), after the relaunch "
                        + "\(downloads.refetchesAfterRelaunch)); GETs \(downloads.gets) for "
                        + "\(downloads.distinctURLs) distinct URLs, of which \(downloads.abortedGets) cut short "
                        + "when their cells were reused"
                        + downloads.urlsSentWholeTwiceDetails(bodies: content.bodies).map { "; " + $0 }.joined()))
        }
        let lruCostLimit = DefaultPolicyLimits.current.costLimit
        for speed in ScrollSpeed.fast {
            for strategy in [FeedStrategy.store, .storeDisplaySize] {
                guard let ours = run(runs, strategy, speed) else { continue }
                let inUse = ours.observations.peakInUseBytes
                let picture = strategy == .store ? content.largestPhotoBytes : content.largestDisplayPhotoBytes
                let bound = inUse + lruCostLimit + loadingThreadCount * picture
                checks.append(
                    GoalCheck(
                        passed: ours.peakLiveBytes <= bound,
                        statement: "network feed \(speed.label): \(strategy.label) peak live ≤ the pictures on screen "
                            + "(and the next screen's prefetch) + LRU limit + one picture per loading thread: "
                            + "\(Format.mebibytes(ours.peakLiveBytes)) ≤ \(Format.mebibytes(inUse)) + "
                            + "\(Format.mebibytes(lruCostLimit)) + \(loadingThreadCount) × "
                            + "\(Format.mebibytes(picture)) MiB"))
            }
        }
        let twoFrames = 2 * ScrollingRun.frameBudgetNanoseconds
        for speed in ScrollSpeed.fast {
            for strategy in [FeedStrategy.store, .storeDisplaySize] {
                guard let ours = run(runs, strategy, speed) else { continue }
                let diskHits = ours.diskHitTimings
                let p99 = Distribution(diskHits).percentile(99)
                checks.append(
                    GoalCheck(
                        passed: !diskHits.isEmpty && p99 <= Double(twoFrames),
                        statement: "network feed \(speed.label), \(strategy.label): p99 time to picture for disk "
                            + "hits ≤ 2 frames: "
                            + (diskHits.isEmpty
                                ? "no photo came from disk after the relaunch"
                                : "\(Format.fixed(p99 / 1e6, digits: 1)) ms over \(diskHits.count) photos ≤ "
                                    + "\(Format.fixed(Double(twoFrames) / 1e6, digits: 1)) ms"),
                        isTiming: true))
            }
        }
        checks += personPaceChecks(runs, content: content)
        return checks
    }

    /// At reading and browsing speed (issue 38): ours shows ≥ 99 % of the rows the scroll brings
    /// on screen with their photo in the frame they appear, sending at most 1.25× the bytes of
    /// the pictures shown.
    private static func personPaceChecks(_ runs: [NetworkFeedRun], content: FeedContent) -> [GoalCheck] {
        ScrollSpeed.allCases.filter(\.isPersonPace).flatMap { speed -> [GoalCheck] in
            [FeedStrategy.store, .storeDisplaySize].compactMap { strategy -> [GoalCheck]? in
                guard let ours = run(runs, strategy, speed) else { return nil }
                let observations = ours.observations
                let shown = ours.bytesOfShownPictures(in: content)
                let ratio = shown == 0 ? 0 : Double(ours.downloads.bodyBytes) / Double(shown)
                return [
                    GoalCheck(
                        passed: ours.shareWithPhotoOnAppearing >= 0.99,
                        statement: "network feed \(speed.label): \(strategy.label) shows ≥ 99 % of the rows scrolled "
                            + "in with their photo in the frame they appear: "
                            + "\(Format.fixed(100 * ours.shareWithPhotoOnAppearing, digits: 1)) % "
                            + "(\(observations.rowsScrolledInWithoutPhoto) of \(observations.rowsScrolledIn) without)",
                        isTiming: true),
                    GoalCheck(
                        passed: ratio <= 1.25,
                        statement: "network feed \(speed.label): \(strategy.label) sends ≤ 1.25× the bytes of the "
                            + "pictures shown: \(Format.fixed(ratio, digits: 2))× (\(Format.mebibytes(ours.downloads.bodyBytes)) "
                            + "of \(Format.mebibytes(shown)) MiB; \(Format.mebibytes(ours.bytesSentForUnshownRows)) MiB "
                            + "for rows that never appeared)",
                        isTiming: true),
                ]
            }.flatMap { $0 }
        }
    }

    /// Problems with the measurement itself: leaks, failed lookups.
    static func measurementWarnings(_ runs: [NetworkFeedRun]) -> [String] {
        runs.flatMap { $0.measurementWarnings(context: "network feed / \($0.label)") }
    }

    private static func run(_ runs: [NetworkFeedRun], _ strategy: FeedStrategy, _ speed: ScrollSpeed)
        -> NetworkFeedRun?
    {
        runs.first { $0.strategy == strategy && $0.speed == speed }
    }
}

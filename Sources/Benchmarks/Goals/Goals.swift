/// The goals the README quotes for the default policy (weak + LRU), judged on this run.
enum Goals {
    /// A hit must cost no more than a bare dictionary behind a lock.
    private static let hitPathRatioLimit = 1.0

    /// Every goal, per workload where the goal is per workload.
    static func evaluate(
        _ reports: [WorkloadReport], hitPath: HitPathBenchmark.Results?,
        limits: DefaultPolicyLimits
    ) -> [GoalCheck] {
        var checks: [GoalCheck] = []
        var totals = (ours: 0, weak: 0)
        for report in reports {
            guard let ours = report.run(labelled: StrategyKind.defaultPolicyLabel) else { continue }
            let slug = report.workload.slug.padding(toLength: 12, withPad: " ", startingAt: 0)
            checks.append(
                GoalCheck(
                    passed: ours.maximumDuplicates == 0,
                    statement: "\(slug) no duplicates: \(ours.maximumDuplicates) duplicate instances"))

            let bound = report.peakInUseBytes + limits.costLimit
            checks.append(
                GoalCheck(
                    passed: ours.peakLiveBytes <= bound,
                    statement: "\(slug) peak ≤ in-use peak + LRU cost limit: \(Format.mebibytes(ours.peakLiveBytes)) ≤ "
                        + "\(Format.mebibytes(report.peakInUseBytes)) + \(Format.mebibytes(limits.costLimit)) MiB"))

            let audit = ours.smallImageDecodes
            checks.append(
                GoalCheck(
                    passed: audit.unexplained == 0,
                    statement: "\(slug) small images decoded once unless evicted: \(audit.distinctImages) distinct, "
                        + "\(audit.decodes) decodes = \(audit.distinctImages) + \(audit.afterWarning) after a memory warning "
                        + "+ \(audit.afterEviction) after an LRU eviction + \(audit.unexplained) unexplained"))

            // Per workload "no more"; "fewer" is judged on the total below, because where every
            // image is large (the pager) the LRU by design holds nothing and both decode alike.
            if let weak = report.run(labelled: StrategyKind.weakDictionaryLabel) {
                totals.ours += ours.decodes
                totals.weak += weak.decodes
                checks.append(
                    GoalCheck(
                        passed: ours.decodes <= weak.decodes,
                        statement: "\(slug) no more decodes than weak dictionary: \(ours.decodes) vs \(weak.decodes) "
                            + "(minimum possible: \(ours.distinctImages))"))
            }
            checks.append(noStrategyDominates(ours, in: report, slug: slug))
        }
        checks.append(
            GoalCheck(
                passed: totals.ours < totals.weak,
                statement: "all workloads: fewer decodes than weak dictionary in total: "
                    + "\(totals.ours) vs \(totals.weak)"))
        if let hitPath { checks += hitPathGoals(hitPath) }
        return checks
    }

    /// The store's hits at most as costly as a locked `Dictionary`'s, per thread count.
    static func hitPathGoals(_ hitPath: HitPathBenchmark.Results) -> [GoalCheck] {
        HitPathBenchmark.threadCounts.map { threads in
            let strong = hitPath.ratioToDictionary(HitPathBenchmark.storeStrongHit, threads: threads)
            let weak = hitPath.ratioToDictionary(HitPathBenchmark.storeWeakHit, threads: threads)
            return GoalCheck(
                passed: strong <= hitPathRatioLimit && weak <= hitPathRatioLimit,
                statement: "hit path ≤ \(Format.ratio(hitPathRatioLimit)) a locked Dictionary, \(threads) "
                    + "thread\(threads == 1 ? "" : "s"): strong hit \(Format.ratio(strong)), weak hit \(Format.ratio(weak))",
                isTiming: true)
        }
    }

    /// What the design promises against every other strategy: none has both peak bytes and
    /// decodes at most ours with one of them strictly less. Trading one for the other is allowed:
    /// large images are held weakly only, so a strategy that keeps them strongly may decode less
    /// at a higher peak.
    private static func noStrategyDominates(_ ours: RunResult, in report: WorkloadReport, slug: String) -> GoalCheck {
        let others = report.runs.filter { $0.strategy != StrategyKind.defaultPolicyLabel }
        let dominating = others.filter { other in
            other.peakLiveBytes <= ours.peakLiveBytes && other.decodes <= ours.decodes
                && (other.peakLiveBytes < ours.peakLiveBytes || other.decodes < ours.decodes)
        }
        func figures(_ run: RunResult) -> String {
            "\(run.strategy) \(Format.mebibytes(run.peakLiveBytes)) MiB / \(run.decodes)"
        }
        let verdict =
            dominating.isEmpty
            ? "none" : "dominated by " + dominating.map(figures).joined(separator: ", ")
        return GoalCheck(
            passed: dominating.isEmpty,
            statement: "\(slug) no strategy dominates weak + LRU (peak MiB / decodes): \(verdict); ours "
                + "\(Format.mebibytes(ours.peakLiveBytes)) MiB / \(ours.decodes) vs "
                + others.map(figures).joined(separator: ", "))
    }

    /// Problems with the measurement itself rather than with a strategy: leaks between runs,
    /// failed lookups, counters that disagree with the replay's own count.
    static func measurementWarnings(_ reports: [WorkloadReport]) -> [String] {
        var warnings: [String] = []
        for report in reports {
            for run in report.runs {
                let context = "\(report.workload.slug) / \(run.strategy)"
                if run.liveCountAfterRelease != 0 {
                    warnings.append(
                        "\(context): \(run.liveCountAfterRelease) bitmaps still alive after releasing everything")
                }
                if run.failedLookups > 0 {
                    warnings.append("\(context): \(run.failedLookups) lookups returned nil")
                }
                if run.counters.decodes != run.decodes {
                    warnings.append(
                        "\(context): the strategy counted \(run.counters.decodes) decodes, "
                            + "the replay saw \(run.decodes) new instances")
                }
            }
            if !report.inconsistentInUseRuns.isEmpty {
                warnings.append(
                    "\(report.workload.slug): in-use bytes differ for "
                        + report.inconsistentInUseRuns.joined(separator: ", "))
            }
        }
        return warnings
    }
}

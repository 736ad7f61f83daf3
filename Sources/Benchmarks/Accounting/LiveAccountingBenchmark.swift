import Foundation
import WeakImageStore

/// Replays the workloads on the default policy and under a live-byte budget, checking the
/// store's `liveCost` against the bitmaps' exact accounting at every step.
///
/// | workload | budget |
/// |---|---|
/// | the four UI workloads | the workload's peak in-use bytes: the tightest budget its screens fit in |
/// | deep stack | half its peak in-use bytes: the views come to hold more than the budget |
struct LiveAccountingBenchmark {
    let corpus: Corpus
    let workloads: [Workload]

    /// Runs every replay, prints a table, writes `accounting.csv` and one chart per workload.
    ///
    /// - Returns: The goal checks, to print with the others.
    func run(outputDirectory: URL) throws -> [GoalCheck] {
        var checks: [GoalCheck] = []
        var table = TextTable(headers: [
            "workload", "policy", "budget MiB", "peak live MiB", "peak in use MiB", "decodes", "overruns",
            "steps store ≠ exact", "max over max(budget, in use)",
        ])
        var csv = ["workload,policy,step,store_live_bytes,exact_live_bytes,in_use_bytes,budget_bytes"]
        for workload in workloads + [.deepStack(corpus.layout)] {
            let isDeepStack = workload.slug == "deep-stack"
            FileHandle.standardError.write(Data("  accounting \(workload.slug)…\n".utf8))
            let unbudgeted = AccountingTrace.replay(
                workload, corpus: corpus, policy: .default, label: "default", budget: nil)
            let peakInUse = unbudgeted.inUseBytes.max() ?? 0
            let budget = max(1, isDeepStack ? peakInUse / 2 : peakInUse)
            let budgeted = AccountingTrace.replay(
                workload, corpus: corpus, policy: .budgeted(liveCostLimit: budget), label: "budgeted", budget: budget)
            let traces = [unbudgeted, budgeted]

            for trace in traces {
                table.append([
                    workload.slug, trace.label, trace.budget.map { Format.mebibytes($0) } ?? "none",
                    Format.mebibytes(trace.peakLiveBytes), Format.mebibytes(peakInUse), "\(trace.decodes)",
                    "\(trace.budgetOverruns)", "\(trace.mismatchedSteps)", "\(trace.largestExcessOverBudget) B",
                ])
                for step in trace.storeLiveBytes.indices {
                    csv.append(
                        "\(workload.slug),\(trace.label),\(step),\(trace.storeLiveBytes[step]),"
                            + "\(trace.bitmapLiveBytes[step]),\(trace.inUseBytes[step]),\(trace.budget ?? 0)")
                }
            }
            try AccountingChart.render(workload, traces: traces).write(
                to: outputDirectory.appendingPathComponent("accounting-\(workload.slug).svg"),
                atomically: true, encoding: .utf8)
            checks += goals(workload, unbudgeted: unbudgeted, budgeted: budgeted, checksDecodes: !isDeepStack)
        }
        print(table.rendered() + "\n")
        try (csv.joined(separator: "\n") + "\n").write(
            to: outputDirectory.appendingPathComponent("accounting.csv"), atomically: true, encoding: .utf8)
        print("wrote accounting.csv and accounting-*.svg to \(outputDirectory.path)/\n")
        return checks
    }

    private func goals(
        _ workload: Workload, unbudgeted: AccountingTrace, budgeted: AccountingTrace, checksDecodes: Bool
    ) -> [GoalCheck] {
        let slug = workload.slug.padding(toLength: 12, withPad: " ", startingAt: 0)
        let steps = unbudgeted.storeLiveBytes.count
        var checks = [
            GoalCheck(
                passed: unbudgeted.mismatchedSteps == 0 && budgeted.mismatchedSteps == 0,
                statement: "\(slug) store liveCost = exact Bitmap.memory at every step: \(steps) steps × 2 stores, "
                    + "\(unbudgeted.mismatchedSteps + budgeted.mismatchedSteps) differ"),
            GoalCheck(
                passed: budgeted.largestExcessOverBudget == 0,
                statement: "\(slug) budgeted live bytes ≤ max(budget \(Format.mebibytes(budgeted.budget ?? 0)) MiB, "
                    + "in use) at every step: largest excess \(budgeted.largestExcessOverBudget) B"),
        ]
        if checksDecodes {
            let limit = Double(unbudgeted.decodes) * 1.1
            checks.append(
                GoalCheck(
                    passed: Double(budgeted.decodes) <= limit,
                    statement: "\(slug) budgeted decodes within 10 % of the unbudgeted default: "
                        + "\(budgeted.decodes) vs \(unbudgeted.decodes)"))
        }
        return checks
    }
}

import Foundation
import WeakImageStore

/// Replays the workloads on the default policy and under a live-byte budget, checking the
/// store's `liveCost` against the bitmaps' exact accounting at every step.
///
/// | workload | budgets |
/// |---|---|
/// | the four UI workloads | the default policy's peak live bytes (what the default already fits in: the decode goal), and, except with `--quick`, the workload's peak in-use bytes (a binding budget, for information) |
/// | deep stack | half its peak in-use bytes: the views come to hold more than the budget |
///
/// A budget below what the LRU needs costs decodes by design: the LRU must give way at once
/// whenever live bytes exceed the budget, because a view may let go of what it holds at any
/// moment and live bytes must then still be within the budget.
struct LiveAccountingBenchmark {
    let corpus: Corpus
    let workloads: [Workload]
    /// Whether to add the binding in-use-peak budget on the four UI workloads; `--quick` leaves
    /// it out to stay fast.
    let includesBindingBudgets: Bool

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
            Console.progress("  accounting \(workload.slug)…")
            let unbudgeted = AccountingTrace.replay(
                workload, corpus: corpus, policy: .default, label: "default", budget: nil)
            let peakInUse = unbudgeted.inUseBytes.max() ?? 0
            let budgets =
                isDeepStack
                ? [("half in use", peakInUse / 2)]
                : [("default's peak", unbudgeted.peakLiveBytes)]
                    + (includesBindingBudgets ? [("in-use peak", peakInUse)] : [])
            let budgetedTraces = budgets.map { label, budget in
                AccountingTrace.replay(
                    workload, corpus: corpus, policy: .budgeted(liveCostLimit: max(1, budget)), label: label,
                    budget: max(1, budget))
            }
            let traces = [unbudgeted] + budgetedTraces

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
            checks += goals(workload, unbudgeted: unbudgeted, budgeted: budgetedTraces, checksDecodes: !isDeepStack)
        }
        print(table.rendered() + "\n")
        try (csv.joined(separator: "\n") + "\n").write(
            to: outputDirectory.appendingPathComponent("accounting.csv"), atomically: true, encoding: .utf8)
        print("wrote accounting.csv and accounting-*.svg to \(outputDirectory.path)/\n")
        return checks
    }

    /// Exactness for every store, the bound for every budget, decodes for the first budget.
    private func goals(
        _ workload: Workload, unbudgeted: AccountingTrace, budgeted: [AccountingTrace], checksDecodes: Bool
    ) -> [GoalCheck] {
        let slug = workload.slug.padding(toLength: 12, withPad: " ", startingAt: 0)
        let traces = [unbudgeted] + budgeted
        let mismatches = traces.reduce(0) { $0 + $1.mismatchedSteps }
        var checks = [
            GoalCheck(
                passed: mismatches == 0,
                statement: "\(slug) store liveCost = exact Bitmap.memory at every step: "
                    + "\(unbudgeted.storeLiveBytes.count) steps × \(traces.count) stores, \(mismatches) differ")
        ]
        for trace in budgeted {
            checks.append(
                GoalCheck(
                    passed: trace.largestExcessOverBudget == 0,
                    statement: "\(slug) live bytes ≤ max(budget \(Format.mebibytes(trace.budget ?? 0)) MiB, in use) "
                        + "at every step: largest excess \(trace.largestExcessOverBudget) B"))
        }
        if checksDecodes, let first = budgeted.first {
            checks.append(
                GoalCheck(
                    passed: Double(first.decodes) <= Double(unbudgeted.decodes) * 1.1,
                    statement:
                        "\(slug) decodes with budget \(first.label) (\(Format.mebibytes(first.budget ?? 0)) MiB) "
                        + "within 10 % of the unbudgeted default: \(first.decodes) vs \(unbudgeted.decodes)"))
        }
        return checks
    }
}

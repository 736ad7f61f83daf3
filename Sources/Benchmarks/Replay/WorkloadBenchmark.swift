import Foundation

/// Replays every workload against every strategy, one after the other, in one process.
struct WorkloadBenchmark {
    let workloads: [Workload]
    let strategies: [StrategyKind]
    let replayer: Replayer

    /// Runs everything, reporting progress on standard error.
    func run() -> [WorkloadReport] {
        workloads.map { workload in
            let runs = strategies.map { kind in
                Console.progress("  replaying \(workload.slug) with \(kind.label)…")
                return replayer.run(workload, kind)
            }
            return WorkloadReport(workload: workload, runs: runs)
        }
    }
}

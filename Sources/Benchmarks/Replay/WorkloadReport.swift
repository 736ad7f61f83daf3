/// One workload replayed against every strategy.
struct WorkloadReport {
    let workload: Workload
    let runs: [RunResult]

    /// The in-use bytes after every step; the same for every strategy that returned every image.
    var inUseBytes: [Int] { runs.first?.inUseBytes ?? [] }
    var peakInUseBytes: Int { runs.first?.peakInUseBytes ?? 0 }

    /// The steps at which a memory warning arrived.
    var memoryWarningSteps: [Int] {
        workload.steps.indices.filter { workload.steps[$0].isMemoryWarning }
    }

    func run(labelled label: String) -> RunResult? {
        runs.first { $0.strategy == label }
    }

    /// Runs whose in-use series differs from the first run's: each view holds the same images
    /// under every strategy, so a difference means some lookups failed.
    var inconsistentInUseRuns: [String] {
        runs.filter { $0.inUseBytes != inUseBytes }.map(\.strategy)
    }
}

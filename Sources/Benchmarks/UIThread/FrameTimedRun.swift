/// A run of a UI workload whose UI thread's frames were timed by a ``FrameClock``.
protocol FrameTimedRun: Sendable {
    /// Every frame the UI thread drew.
    var frames: [ScrollingRun.Frame] { get }
    /// Lookups that returned no image.
    var failedLookups: Int { get }
    /// Bitmaps still alive after the UI thread and the store were released: 0 unless something
    /// leaked.
    var liveCountAfterRelease: Int { get }
}

extension FrameTimedRun {
    var cpuDistribution: Distribution { Distribution(frames.map(\.cpuNanoseconds)) }
    var wallDistribution: Distribution { Distribution(frames.map(\.wallNanoseconds)) }

    /// Frames whose work did not fit the 16.7 ms budget, by the UI thread's CPU time.
    var framesOverBudgetByCPU: Int { frames.filter { $0.cpuNanoseconds > ScrollingRun.frameBudgetNanoseconds }.count }
    /// The same by the wall clock.
    var framesOverBudgetByWall: Int {
        frames.filter { $0.wallNanoseconds > ScrollingRun.frameBudgetNanoseconds }.count
    }

    /// Problems with the measurement itself rather than with the store: leaks, failed lookups.
    ///
    /// - Parameter context: Names the run at the start of each warning.
    func measurementWarnings(context: String) -> [String] {
        var warnings: [String] = []
        if liveCountAfterRelease != 0 {
            warnings.append("\(context): \(liveCountAfterRelease) bitmaps still alive after releasing everything")
        }
        if failedLookups > 0 { warnings.append("\(context): \(failedLookups) lookups failed") }
        return warnings
    }

    /// One CSV line per frame, `frame,ui_cpu_ns,ui_wall_ns` after `fields` (which name the run).
    func frameCSVLines(_ fields: [String]) -> [String] {
        let prefix = fields.map { $0 + "," }.joined()
        return frames.enumerated().map { index, frame in
            "\(prefix)\(index),\(frame.cpuNanoseconds),\(frame.wallNanoseconds)"
        }
    }
}

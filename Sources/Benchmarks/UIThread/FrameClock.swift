import Foundation

/// Paces the UI thread at 60 frames per second and times each frame's work.
///
/// A frame's time is the work the thread did in it; between frames it sleeps to the next
/// 16.7 ms tick, and a frame that overran starts at the first tick after it ended, as a missed
/// display refresh would.
struct FrameClock {
    private var nextTick = MonotonicClock.now()

    /// Waits for the next tick, runs `atTick` untimed and then `work`.
    ///
    /// - Parameter atTick: A measurement of the moment the tick came, before the frame changes
    ///   anything; its time is not the frame's.
    /// - Returns: The times of the frame's work.
    mutating func drawFrame(atTick: () -> Void = {}, _ work: () -> Void) -> ScrollingRun.Frame {
        let now = MonotonicClock.now()
        if nextTick > now { Thread.sleep(forTimeInterval: Double(nextTick - now) / 1e9) }
        atTick()
        let wallStart = MonotonicClock.now()
        let cpuStart = CPUClock.thread()
        work()
        let cpuEnd = CPUClock.thread()
        let end = MonotonicClock.now()
        let period = ScrollingRun.frameBudgetNanoseconds
        nextTick += period
        if nextTick <= end { nextTick += ((end - nextTick) / period + 1) * period }
        return ScrollingRun.Frame(cpuNanoseconds: cpuEnd - cpuStart, wallNanoseconds: end - wallStart)
    }
}

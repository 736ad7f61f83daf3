/// The UI thread of a workload: it draws frames, and in each it takes what background work
/// handed back to it through its ``UIInbox``.
///
/// Everything a conforming type does runs on that one thread.
protocol UIThreadWorkload: AnyObject {
    /// Draws one frame of `work` on the workload's ``FrameLoop``, then records, outside the
    /// frame's timing, what the workload watches after each frame.
    func drawFrame(_ work: () -> Void)

    /// Sets what background work handed back since the last frame.
    func receiveDeliveries()
}

extension UIThreadWorkload {
    /// Draws frames that only take deliveries until `isDone`, or `seconds` have passed: the
    /// screen settling after it appeared or stopped scrolling.
    ///
    /// - Returns: Whether `isDone` held at the end.
    @discardableResult
    func drawFramesTakingDeliveries(forAtMost seconds: Double, until isDone: () -> Bool) -> Bool {
        let deadline = MonotonicClock.now() + UInt64(seconds * 1e9)
        while !isDone() && MonotonicClock.now() < deadline {
            drawFrame { receiveDeliveries() }
        }
        return isDone()
    }
}

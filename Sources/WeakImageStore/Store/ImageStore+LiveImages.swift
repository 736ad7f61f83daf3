extension ImageStore {
    /// Starts a new measurement of ``ImageStoreStatistics/peakLiveCost`` at the current live bytes.
    public func resetPeakLiveCost() {
        engine.resetPeakLiveCost()
    }

    /// The moments the images in use alone come to exceed the policy's live-byte budget.
    ///
    /// Only a `.weakWithBudgetedLRU` store reports overruns. An overrun means the LRU gave way
    /// completely and everything alive is held by the app: a leak, or screens holding more
    /// than the budget allows. Each overrun is reported once, until live bytes fit again.
    ///
    /// ```swift
    /// Task {
    ///     for await overrun in store.budgetOverruns() {
    ///         log("images in use: \(overrun.liveCost) bytes, budget \(overrun.liveCostLimit)")
    ///     }
    /// }
    /// ```
    ///
    /// - Returns: A new stream for one consumer; it keeps the 16 newest unread overruns and ends
    ///   when the store is freed. Call again for another consumer.
    public func budgetOverruns() -> AsyncStream<BudgetOverrun> {
        engine.budgetOverruns()
    }
}

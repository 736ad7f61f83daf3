/// Live-image accounting and the live-cost budget: the critical sections behind
/// ``ImageStoreStatistics/liveCost`` and `.weakWithBudgetedLRU`.
extension StoreState {
    /// What the store does after a critical section that checked the budget.
    enum BudgetStep {
        /// Live bytes fit the limit, there is none, or an overrun was reported already.
        case settled
        /// LRU entries were evicted: release them, then check again (those nobody else held
        /// report their death as they are released).
        case trimmed
        /// In-use images alone exceed the limit: tell these observers, after unlocking.
        case overrun(BudgetOverrun, [AsyncStream<BudgetOverrun>.Continuation])
    }

    /// Counts a freshly loaded image as live, then stores it. Use in place of `storage.store`
    /// for every image the store hands out.
    mutating func storeLoaded(_ image: CachedImage, for key: ResourceKey, released: inout [CachedImage]) {
        let token = live.register(image, for: key)
        storage.liveCostDidChange(to: live.liveCost)
        storage.store(image, for: key, token: token, released: &released)
    }

    /// The image registered under `token` died: forget it, and its weak entry unless a newer
    /// image took the key meanwhile. Frees nothing, so it is safe from inside an image's deinit.
    mutating func imageDied(_ token: DeathToken) {
        guard let image = live.imageDied(token) else { return }
        storage.imageDied(for: image.key, token: token)
        let liveCost = live.liveCost
        storage.liveCostDidChange(to: liveCost)
        if let limit = storage.liveCostLimit, liveCost <= limit {
            budget.endOverrun()
        }
    }

    /// One step of bringing live bytes within the policy's limit: evicts LRU entries worth the
    /// excess, or, with the LRU empty, reports that in-use images alone exceed the limit.
    mutating func enforceLiveCostLimit(released: inout [CachedImage]) -> BudgetStep {
        guard let limit = storage.liveCostLimit else { return .settled }
        if !live.isExact { live.pruneUnwatched() }
        let liveCost = live.liveCost
        storage.liveCostDidChange(to: liveCost)
        guard liveCost > limit else {
            budget.endOverrun()
            return .settled
        }
        let before = released.count
        if storage.evictLeastRecentlyUsed(cost: liveCost - limit, released: &released) {
            counters.evictions += released.count - before
            return .trimmed
        }
        guard let observers = budget.beginOverrun() else { return .settled }
        return .overrun(BudgetOverrun(liveCost: liveCost, liveCostLimit: limit), observers)
    }

    /// Starts a new peak measurement at the current live bytes.
    mutating func resetPeakLiveCost() {
        live.resetPeak()
    }

    /// Fills in the live-image figures of `statistics`.
    func addLiveImageStatistics(to statistics: inout ImageStoreStatistics) {
        statistics.liveCost = live.liveCost
        statistics.liveCount = live.liveCount
        statistics.peakLiveCost = live.peakLiveCost
        statistics.liveCostLimit = storage.liveCostLimit
        statistics.budgetOverruns = budget.overruns
    }
}

/// Live-image accounting and the live-cost budget: the critical sections behind
/// ``ImageStoreStatistics/liveCost`` and `.weakWithBudgetedLRU`.
extension MemoryState {
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
    mutating func storeLoaded(_ image: CachedImage, for key: ImageKey, released: inout [CachedImage]) {
        let token = live.register(image, for: key)
        storage.liveCostDidChange(to: live.liveCost + decodingCost)
        storage.store(image, for: key, token: token, released: &released)
    }

    /// The image registered under `token` died: forget it, and its weak entry unless a newer
    /// image took the key meanwhile. Frees nothing, so it is safe from inside an image's deinit.
    /// Counts `image` as live until it dies without filing it anywhere: its death finds no entry
    /// to remove.
    mutating func countLive(_ image: CachedImage) {
        _ = live.register(image, for: Self.unfiledKey)
        storage.liveCostDidChange(to: live.liveCost + decodingCost)
    }

    /// The key live images counted by ``countLive(_:)`` are registered under.
    private static let unfiledKey = ImageKey(source: SourceIdentity(.file, "", scale: 1, hash: 0))

    mutating func imageDied(_ token: DeathToken) {
        guard let image = live.imageDied(token) else { return }
        storage.imageDied(for: image.key, token: token)
        let liveCost = live.liveCost
        storage.liveCostDidChange(to: liveCost + decodingCost)
        if let limit = storage.liveCostLimit, liveCost <= limit {
            budget.endOverrun()
        }
    }

    /// Reserves `cost` bytes of the live-cost limit for a decode about to start; the store then
    /// trims the LRU to make room before the image exists, not only once it is stored.
    mutating func reserveDecodingCost(_ cost: Int) {
        decodingCost += cost
        storage.liveCostDidChange(to: live.liveCost + decodingCost)
    }

    /// One step of bringing live bytes, plus those reserved for decodes in progress, within the
    /// policy's limit: evicts LRU entries worth the excess, or, with the LRU empty, reports that
    /// in-use images alone exceed the limit.
    mutating func enforceLiveCostLimit(released: inout [CachedImage]) -> BudgetStep {
        guard let limit = storage.liveCostLimit else { return .settled }
        if !live.isExact { live.pruneUnwatched() }
        let liveCost = live.liveCost
        let demand = liveCost + decodingCost
        storage.liveCostDidChange(to: demand)
        guard demand > limit else {
            budget.endOverrun()
            return .settled
        }
        let before = released.count
        if storage.evictLeastRecentlyUsed(cost: demand - limit, released: &released) {
            counters.evictions += released.count - before
            return .trimmed
        }
        // Images still being decoded are no overrun: they count once they exist.
        guard liveCost > limit else {
            budget.endOverrun()
            return .settled
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

/// The engine's side of live-image accounting: death reports come in here, and the budget is
/// enforced here, between critical sections, so evicted images die with no lock held.
extension StoreEngine: ImageDeathObserver {
    func imageDied(_ token: DeathToken) {
        // Runs inside the image's deinit. The store never frees an image under its lock, so
        // this thread does not hold it; and this section frees nothing.
        state.withLock { $0.memory.imageDied(token) }
    }

    /// Trims the LRU until live bytes fit the policy's limit or the LRU is empty, then tells
    /// observers if in-use images alone exceed it. Call after every load, with no lock held.
    /// Counts `image` among the live images until it dies, though the store's memory does not hold
    /// it: an animation and its frames.
    func countLive(_ image: CachedImage) {
        state.withLock { $0.memory.countLive(image) }
        if hasLiveCostLimit { enforceLiveCostLimit() }
    }

    func enforceLiveCostLimit() {
        while true {
            var released: [CachedImage] = []
            let step = state.withLock { $0.memory.enforceLiveCostLimit(released: &released) }
            // Images nobody else holds die here and report, lowering live bytes.
            released.removeAll()
            switch step {
            case .settled:
                return
            case .trimmed:
                continue
            case .overrun(let overrun, let observers):
                for observer in observers {
                    observer.yield(overrun)
                }
                return
            }
        }
    }

    func resetPeakLiveCost() {
        state.withLock { $0.memory.resetPeakLiveCost() }
    }

    /// A new stream of budget overruns; it ends when the store is freed.
    func budgetOverruns() -> AsyncStream<BudgetOverrun> {
        // The build closure runs before `init` returns. (`makeStream` is missing from older SDKs.)
        var madeContinuation: AsyncStream<BudgetOverrun>.Continuation?
        let stream = AsyncStream(BudgetOverrun.self, bufferingPolicy: .bufferingNewest(16)) { madeContinuation = $0 }
        guard let continuation = madeContinuation else { preconditionFailure("AsyncStream did not build") }
        let id = state.withLock { $0.memory.budget.addObserver(continuation) }
        continuation.onTermination = { [weak self] _ in
            self?.state.withLock { $0.memory.budget.removeObserver(id) }
        }
        return stream
    }
}

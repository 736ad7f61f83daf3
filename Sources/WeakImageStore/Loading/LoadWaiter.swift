/// Identifies one waiter of one lookup, so a cancellation can find it.
typealias WaiterID = Int

/// What a synchronous caller blocks on while another thread runs the load it joined.
typealias LoadLatch = Latch<Result<CachedImage, ImageStoreError>>

/// Someone waiting for a load: an async task, a prefetch or a blocked synchronous caller.
///
/// Waiters live in the store's locked state; ``deliver(_:)`` is called exactly once per waiter,
/// always after the lock is released.
struct LoadWaiter: PrioritizedWaiter {
    /// How the result reaches the waiter.
    enum Delivery: Sendable {
        /// An `async` lookup suspended on a continuation.
        case task(CheckedContinuation<Result<CachedImage, ImageStoreError>, Never>)
        /// One name of an ``ImagePrefetch``; held weakly so dropping the handle cancels it.
        case prefetch(PrefetchSlot)
        /// A synchronous caller blocked on a latch.
        case sync(LoadLatch)
    }

    let id: WaiterID
    var priority: ImageLoadPriority
    let delivery: Delivery

    /// Hands the result over. Never call it under the store's lock.
    func deliver(_ result: Result<CachedImage, ImageStoreError>) {
        switch delivery {
        case .task(let continuation): continuation.resume(returning: result)
        case .prefetch(let slot): slot.prefetch?.receive(result, at: slot.index)
        case .sync(let latch): latch.complete(with: result)
        }
    }
}

import Dispatch

/// One load in progress: the thread that missed first decodes, the others wait here for its result.
final class PendingLoad: Sendable {
    private let outcome = Lock<Result<CachedImage, ImageStoreError>?>(nil)
    private let finished = DispatchGroup()

    init() {
        finished.enter()
    }

    /// Publishes the result to every waiter, present and future. Called exactly once.
    func complete(with result: Result<CachedImage, ImageStoreError>) {
        outcome.withLock { $0 = result }
        finished.leave()
    }

    /// Blocks until the load completes, then returns its result.
    func wait() -> Result<CachedImage, ImageStoreError> {
        finished.wait()
        // `complete(with:)` stores the outcome before leaving the group, so it is set here.
        return outcome.withLock { $0 } ?? .failure(.unreadable(path: "", reason: "load abandoned"))
    }
}

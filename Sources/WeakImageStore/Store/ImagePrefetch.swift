/// Images being loaded ahead of need, kept alive until this handle is cancelled or released.
///
/// Returned by ``ImageStore/prefetch(_:priority:)`` and ``ImageStore/prefetch(named:priority:)``.
/// The handle holds every image it loaded
/// strongly, so the store's weak layer serves them to later lookups at once, large photos
/// included. Dropping the last reference to the handle cancels it.
public final class ImagePrefetch: Sendable {
    /// How far a prefetch has come.
    public struct Progress: Sendable, Equatable {
        /// The number of requests (names) asked for.
        public var total: Int
        /// The requests whose image is loaded (and held by the handle until it is cancelled).
        public var loaded: Int
        /// The requests that failed: not found, unreadable, undecodable.
        public var failed: Int
        /// Whether ``ImagePrefetch/cancel()`` was called.
        public var isCancelled: Bool

        /// Whether nothing more will happen: every request loaded or failed, or the prefetch was
        /// cancelled.
        public var isFinished: Bool { isCancelled || loaded + failed == total }
    }

    private struct State: Sendable {
        var images: [CachedImage?]
        var failures: [ImageStoreError?]
        var progress: Progress
        var waiters: [WaiterID] = []
        var finishedWaiters: [CheckedContinuation<Void, Never>] = []
    }

    /// The requests, in the order they were asked for.
    public let requests: [ImageRequest]
    private let engine: StoreEngine
    private let state: Lock<State>

    init(requests: [ImageRequest], engine: StoreEngine) {
        self.requests = requests
        self.engine = engine
        state = Lock(
            State(
                images: Array(repeating: nil, count: requests.count),
                failures: Array(repeating: nil, count: requests.count),
                progress: Progress(total: requests.count, loaded: 0, failed: 0, isCancelled: false)))
    }

    /// The requests as names, in order: a `.named` request's name, any other's description.
    public var names: [String] {
        requests.map { $0.name ?? $0.description }
    }

    deinit {
        // The images go with the handle; only the loads nobody else waits for are left to cancel.
        engine.cancel(waiters: state.withLock { $0.waiters })
    }

    /// How many requests have loaded or failed so far.
    public var progress: Progress {
        state.withLock { $0.progress }
    }

    /// The images loaded so far, by request, as the store's image type (`Bitmap`, `UIImage`, …).
    public var images: [ImageRequest: any StorableImage] {
        state.withLock { state in
            var images: [ImageRequest: any StorableImage] = [:]
            for (index, image) in state.images.enumerated() {
                if let image = image?.object as? any StorableImage { images[requests[index]] = image }
            }
            return images
        }
    }

    /// Why requests failed, by request.
    public var errors: [ImageRequest: ImageStoreError] {
        state.withLock { state in
            var errors: [ImageRequest: ImageStoreError] = [:]
            for (index, error) in state.failures.enumerated() {
                if let error { errors[requests[index]] = error }
            }
            return errors
        }
    }

    /// The images loaded so far, by name (see ``names``).
    public var loadedImages: [String: any StorableImage] {
        Dictionary(
            images.map { ($0.key.name ?? $0.key.description, $0.value) }, uniquingKeysWith: { first, _ in first })
    }

    /// Why requests failed, by name (see ``names``).
    public var failures: [String: ImageStoreError] {
        Dictionary(
            errors.map { ($0.key.name ?? $0.key.description, $0.value) }, uniquingKeysWith: { first, _ in first })
    }

    /// Stops the prefetch: its queued loads that nobody else waits for are dropped and the images
    /// it holds are released (they stay shared while anyone else holds them). Calling it again
    /// does nothing.
    public func cancel() {
        var released: [CachedImage?] = []
        let (waiters, finished) = state.withLock { state -> ([WaiterID], [CheckedContinuation<Void, Never>]) in
            guard !state.progress.isCancelled else { return ([], []) }
            state.progress.isCancelled = true
            released = state.images
            state.images = Array(repeating: nil, count: state.images.count)
            defer { state.finishedWaiters = [] }
            return (state.waiters, state.finishedWaiters)
        }
        engine.cancel(waiters: waiters)
        released.removeAll()
        for continuation in finished { continuation.resume() }
    }

    /// Waits until every request has loaded or failed, or the prefetch is cancelled.
    public func finished() async {
        await withCheckedContinuation { continuation in
            let isFinished = state.withLock { state in
                if state.progress.isFinished { return true }
                state.finishedWaiters.append(continuation)
                return false
            }
            if isFinished { continuation.resume() }
        }
    }

    /// Records the ids of the waiters the store registered for this prefetch, one per request.
    func assignWaiters(_ ids: [WaiterID]) {
        state.withLock { $0.waiters = ids }
    }

    /// Takes the result for the request at `index`; after cancellation results are dropped.
    func receive(_ result: Result<CachedImage, ImageStoreError>, at index: Int) {
        let finished = state.withLock { state -> [CheckedContinuation<Void, Never>] in
            guard !state.progress.isCancelled else { return [] }
            switch result {
            case .success(let image):
                state.images[index] = image
                state.progress.loaded += 1
            case .failure(let error):
                state.failures[index] = error
                state.progress.failed += 1
            }
            guard state.progress.isFinished else { return [] }
            defer { state.finishedWaiters = [] }
            return state.finishedWaiters
        }
        for continuation in finished { continuation.resume() }
    }
}

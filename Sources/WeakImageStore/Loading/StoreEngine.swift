import Dispatch
import Foundation

/// The non-generic shell behind ``ImageStore``: it runs the critical sections of the locked
/// ``StoreState`` and carries out, outside the lock, the steps they return — resolve a request,
/// fetch the bytes (``ImageFetcher``), decode, deliver. It knows requests and image keys, never a
/// path or a URL. Being non-generic lets the compiler specialize all of it inside the library,
/// so a cache hit costs hash lookups rather than runtime generic-metadata lookups.
final class StoreEngine: Sendable {
    /// Decodes image bytes into an image of the store's type, wrapped with its cost, as the
    /// options say (scale, size, the header read already); and says whether the file was damaged.
    typealias Decode = @Sendable (_ data: Data, _ options: DecodeOptions) throws -> Decoded
    /// A decoded image, and whether the decoder recovered it from a damaged file.
    typealias Decoded = (image: CachedImage, isDamaged: Bool)
    /// Reads the bytes' header; nil when the decoder cannot tell.
    typealias ReadHeader = @Sendable (_ data: Data) -> ImageHeader?
    /// The most memory decoding the bytes as the options say will hold at once, from the header;
    /// nil when the decoder cannot tell.
    typealias PeakBytes = @Sendable (_ data: Data, _ options: DecodeOptions) -> Int?

    let state: Lock<StoreState>
    let fetcher: ImageFetcher
    let decode: Decode
    let readHeader: ReadHeader
    /// The threads loads run on: the store's own, never Dispatch's global pool.
    let lanes = LoadingLanes(label: "WeakImageStore.loading")
    let peakBytes: PeakBytes
    /// Every decode of this store, from loading threads and synchronous callers alike, waits
    /// here until its peak fits beside the others' (see ``admitDecode(of:options:cancellation:)``).
    let decodeAdmission: DecodeAdmission
    /// What decodes cost: the decoder's part of ``LoadEstimate``.
    let decodeMeter = LoadMeter()
    /// Whether the policy limits live bytes, so decodes reserve their cost first.
    let hasLiveCostLimit: Bool
    /// The most one decode reserves: 1 TiB, far above any decodable image.
    static let largestReservation = 1 << 40

    init(
        policy: CachePolicy, maximumConcurrentLoads: Int, fetcher: ImageFetcher,
        decode: @escaping Decode, readHeader: @escaping ReadHeader, peakBytes: @escaping PeakBytes = { _, _ in nil },
        maximumConcurrentDecodingBytes: Int = .max
    ) {
        precondition(maximumConcurrentLoads >= 1, "maximumConcurrentLoads must be at least 1")
        state = Lock(
            StoreState(
                policy: policy, maximumConcurrentLoads: maximumConcurrentLoads,
                readsDownloadsFromDisk: fetcher.network.diskCache != nil))
        self.fetcher = fetcher
        self.decode = decode
        self.readHeader = readHeader
        self.peakBytes = peakBytes
        decodeAdmission = DecodeAdmission(cap: maximumConcurrentDecodingBytes)
        hasLiveCostLimit = state.withLock { $0.memory.storage.liveCostLimit != nil }
        state.withLock { $0.memory.live.observer = self }
    }

    deinit {
        for observer in state.withLock({ $0.memory.budget.allObservers }) { observer.finish() }
    }

    // MARK: Lookups

    /// The hit path of full-size names, synchronous or not: the image if memory holds it, counted
    /// as a hit; nil for everything else, which the caller then looks up as a request. It neither
    /// builds a request nor copies a ``LoadStep`` through memory (each copy of a large value just
    /// written stalls on store forwarding; see BENCHMARKS.md).
    @inline(__always)
    func hit(named name: String) -> CachedImage? {
        var released: [CachedImage] = []
        return state.withLock { $0.memory.hit(named: name, released: &released) }
    }

    /// A synchronous lookup of a full-size name.
    @inline(__always)
    func load(named name: String) throws(ImageStoreError) -> CachedImage {
        if let image = hit(named: name) { return image }
        return try load(.named(name))
    }

    /// A synchronous lookup: a miss resolves, fetches and decodes on the caller's thread.
    func load(_ request: ImageRequest) throws(ImageStoreError) -> CachedImage {
        // Declared before the critical section so evicted images are freed after unlocking.
        var released: [CachedImage] = []
        let step = state.withLock { $0.loads.lookUp(request, memory: &$0.memory, released: &released) }
        if case .finished(let result, _) = step {
            return try result.typedGet()
        }
        // Evicted images go now, before this thread blocks on a load.
        released.removeAll()
        guard let result = drive(step, by: .caller(request), request: request) else {
            preconditionFailure("a synchronous lookup ended without a result")
        }
        return try result.typedGet()
    }

    /// An asynchronous lookup: a hit returns without suspending; a miss waits for a loading
    /// thread, and a cancelled task stops waiting at once.
    @inline(__always)
    nonisolated(nonsending) func load(
        _ request: ImageRequest, priority: ImageLoadPriority
    ) async throws(ImageStoreError) -> CachedImage {
        switch startAsyncLookup(request) {
        case .found(let image): return image
        case .failed(let error): throw error
        case .miss(let id): return try await waitForMiss(request, priority: priority, waiterID: id)
        }
    }

    /// The first critical section of an asynchronous lookup, outside any async frame, so a hit
    /// allocates nothing on the task and passes its image through as few layers as possible.
    @inline(__always)
    private func startAsyncLookup(_ request: ImageRequest) -> LoadStateMachine.AsyncStart {
        var released: [CachedImage] = []
        let start = state.withLock { $0.loads.startAsyncLookup(request, memory: &$0.memory, released: &released) }
        released.removeAll()
        return start
    }

    /// An asynchronous miss: registers the waiter and suspends until its load delivers or the
    /// task is cancelled.
    nonisolated(nonsending) private func waitForMiss(
        _ request: ImageRequest, priority: ImageLoadPriority, waiterID: WaiterID
    ) async throws(ImageStoreError) -> CachedImage {
        let result = await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                register(LoadWaiter(id: waiterID, priority: priority, delivery: .task(continuation)), for: request)
            }
        } onCancel: {
            cancel(waiters: [waiterID])
        }
        // The resumption already orders the loading thread's writes (the decoded image) before
        // this point, but ThreadSanitizer does not see continuations on Linux and would report
        // the image's fields as racing. Taking the lock the loading thread released before
        // resuming makes the order visible to it; it costs one uncontended lock per miss.
        state.withLock { _ in }
        return try result.typedGet()
    }

    /// A memory-only lookup: never fetches, never decodes, never waits.
    func cachedImage(_ request: ImageRequest) -> CachedImage? {
        var released: [CachedImage] = []
        return state.withLock { $0.memory.cachedImage(request, released: &released) }
    }

    /// Starts loading every request for `prefetch`, which receives each result and keeps the
    /// ids of its waiters for cancelling them.
    func prefetch(_ requests: [ImageRequest], priority: ImageLoadPriority, for prefetch: ImagePrefetch) {
        // The ids go to the prefetch before any waiter is registered, so a cancellation racing
        // with the first results always knows whom to cancel.
        let ids = state.withLock { state in requests.map { _ in state.loads.newWaiterID() } }
        prefetch.assignWaiters(ids)
        for (index, request) in requests.enumerated() {
            let slot = PrefetchSlot(prefetch: prefetch, index: index)
            register(LoadWaiter(id: ids[index], priority: priority, delivery: .prefetch(slot)), for: request)
        }
    }

    /// Cancels waiters; each one still waiting gets `.cancelled` now, and downloads nobody
    /// waits for any more stop.
    func cancel(waiters ids: [WaiterID]) {
        let (cancelled, changes) = state.withLock { state in
            (
                ids.compactMap { state.loads.cancel(waiter: $0, memory: &state.memory) },
                state.loads.takeDownloadChanges()
            )
        }
        apply(changes)
        for waiter in cancelled { waiter.deliver(.failure(.cancelled)) }
    }

    private func register(_ waiter: LoadWaiter, for request: ImageRequest) {
        var released: [CachedImage] = []
        let (registration, changes) = state.withLock {
            (
                $0.loads.register(waiter, for: request, memory: &$0.memory, released: &released),
                $0.loads.takeDownloadChanges()
            )
        }
        released.removeAll()
        apply(changes)
        switch registration {
        case .finished(let result):
            waiter.deliver(result)
        case .waiting(let thread):
            if let thread { startLoadingThreadNow(thread) }
        }
    }

    // MARK: Memory

    func handleMemoryPressure(_ level: MemoryPressureLevel) {
        var released: [CachedImage] = []
        state.withLock { $0.memory.handleMemoryPressure(level, released: &released) }
    }

    func removeAll() {
        var released: [CachedImage] = []
        let (cancelled, changes) = state.withLock {
            $0.memory.removeAll(released: &released)
            return ($0.loads.removeAll(memory: &$0.memory), $0.loads.takeDownloadChanges())
        }
        apply(changes)
        for waiter in cancelled { waiter.deliver(.failure(.cancelled)) }
    }

    var statistics: ImageStoreStatistics {
        var statistics = state.withLock { $0.memory.statistics }
        let downloads = fetcher.network.downloader.statistics
        statistics.downloadsStarted = downloads.downloadsStarted
        statistics.downloadsCompleted = downloads.downloadsCompleted
        statistics.downloadsCancelled = downloads.downloadsCancelled
        statistics.bytesDownloaded = downloads.bytesDownloaded
        if let disk = fetcher.network.diskCache?.statistics {
            statistics.diskHits = disk.hits
            statistics.diskMisses = disk.misses
            statistics.diskWrites = disk.writes
            statistics.revalidations = disk.revalidations
            statistics.diskErrors = disk.errors
            statistics.diskLockTimeouts = disk.lockTimeouts
        }
        return statistics
    }

    /// Runs `body` on the locked state; for tests.
    func _withState<Result>(_ body: (inout StoreState) -> Result) -> Result {
        state.withLock(body)
    }

    /// Whether the calling thread holds the lock; for tests.
    func _isHeldByCurrentThread() -> Bool {
        state._isHeldByCurrentThread()
    }
}

import Dispatch
import Foundation

/// The non-generic machinery behind ``ImageStore``: lookups, loading and the locked state. It
/// knows requests, image keys and two steps of the sources behind them — resolve a request, fetch
/// the bytes (``ImageSources``) — never a path or a URL. Being non-generic lets the compiler specialize all of it inside the library, so a cache
/// hit costs hash lookups rather than runtime generic-metadata lookups.
final class StoreEngine: Sendable {
    /// Decodes image bytes into an image of the store's type, wrapped with its cost: full size
    /// when `maxPixelSize` is nil, else reduced to it; and says whether the file was damaged.
    typealias Decode = @Sendable (_ data: Data, _ scale: Int, _ maxPixelSize: Int?) throws -> Decoded
    /// A decoded image, and whether the decoder recovered it from a damaged file.
    typealias Decoded = (image: CachedImage, isDamaged: Bool)
    /// Reads the pixel size from the bytes' header; nil when the decoder cannot tell.
    typealias Measure = @Sendable (_ data: Data) -> PixelSize?
    /// The most memory decoding the bytes (to `maxPixelSize`, or full size when nil) will hold at
    /// once, from the header; nil when the decoder cannot tell.
    typealias PeakBytes = @Sendable (_ data: Data, _ maxPixelSize: Int?) -> Int?

    let state: Lock<StoreState>
    let sources: ImageSources
    private let decode: Decode
    private let measure: Measure
    /// The threads loads run on: the store's own, never Dispatch's global pool.
    private let lanes = LoadingLanes(label: "WeakImageStore.loading")
    let peakBytes: PeakBytes
    /// Every decode of this store, from loading threads and synchronous callers alike, waits
    /// here until its peak fits beside the others' (see ``admitDecode(of:for:cancellation:)``).
    let decodeAdmission: DecodeAdmission
    /// Whether the policy limits live bytes, so decodes reserve their cost first.
    private let hasLiveCostLimit: Bool
    /// The most one decode reserves: 1 TiB, far above any decodable image.
    private static let largestReservation = 1 << 40

    init(
        policy: CachePolicy, maximumConcurrentLoads: Int, sources: ImageSources,
        decode: @escaping Decode, measure: @escaping Measure, peakBytes: @escaping PeakBytes = { _, _ in nil },
        maximumConcurrentDecodingBytes: Int = .max
    ) {
        precondition(maximumConcurrentLoads >= 1, "maximumConcurrentLoads must be at least 1")
        state = Lock(
            StoreState(
                policy: policy, maximumConcurrentLoads: maximumConcurrentLoads,
                readsDownloadsFromDisk: sources.network.diskCache != nil))
        self.sources = sources
        self.decode = decode
        self.measure = measure
        self.peakBytes = peakBytes
        decodeAdmission = DecodeAdmission(cap: maximumConcurrentDecodingBytes)
        hasLiveCostLimit = state.withLock { $0.storage.liveCostLimit != nil }
        state.withLock { $0.live.observer = self }
    }

    deinit {
        for observer in state.withLock({ $0.budget.allObservers }) { observer.finish() }
    }

    // MARK: Lookups

    /// The hit path of full-size names, synchronous or not: the image if memory holds it, counted
    /// as a hit; nil for everything else, which the caller then looks up as a request. It neither
    /// builds a request nor copies a ``StoreState/Step`` through memory: each copy of a large value
    /// just written stalls on store forwarding, which was a third of a hit's time.
    @inline(__always)
    func hit(named name: String) -> CachedImage? {
        var released: [CachedImage] = []
        return state.withLock { $0.hit(named: name, released: &released) }
    }

    /// A synchronous lookup of a full-size name.
    @inline(__always)
    func load(named name: String) throws(ImageStoreError) -> CachedImage {
        if let image = hit(named: name) { return image }
        return try load(.named(name))
    }

    /// A synchronous lookup: a miss resolves, fetches and decodes on the caller's thread.
    func load(_ request: ImageRequest) throws(ImageStoreError) -> CachedImage {
        // Declared before the critical sections so evicted images are freed after unlocking.
        var released: [CachedImage] = []
        var step = state.withLock { $0.lookUp(request, released: &released) }
        if case .found(let image) = step {
            return image
        }
        if case .resolve = step {
            let resolution = sources.resolve(request.source)
            step = state.withLock { $0.resolved(request, as: resolution, released: &released) }
        }
        // The bytes fetched to learn a thumbnail's key are decoded, if this caller loads it.
        var data: Data?
        if case .measure(let fullSize, let maxPixelSize) = step {
            let bytes: Data
            switch sources.fetch(fullSize.bytes) {
            case .success(let fetched):
                bytes = fetched
            case .failure(let error):
                state.withLock { $0.failedToMeasure(request, error: error) }
                throw error
            }
            data = bytes
            let size = measure(bytes)
            step = state.withLock {
                $0.measured(request, source: fullSize, maxPixelSize: maxPixelSize, size: size, released: &released)
            }
        }
        // Evicted images go now, before this thread blocks on a load.
        released.removeAll()
        switch step {
        case .found(let image):
            return image
        case .failed(let error):
            throw error
        case .resolve, .measure:
            preconditionFailure("a resolved and measured request asked to be resolved or measured again")
        case .wait(let latch):
            return try latch.wait().typedGet()
        case .load(let source, let load):
            return try run(load, fetching: source, for: request, data: data).typedGet()
        case .readDisk(let source, let maxPixelSize):
            return try readDisk(source, maxPixelSize: maxPixelSize, for: request)
        }
    }

    /// A synchronous lookup of a network image: a fresh disk entry decoded on the caller's
    /// thread as an unshared load, since a load in flight may be waiting on the network.
    private func readDisk(
        _ source: ImageSource, maxPixelSize: Int?, for request: ImageRequest
    ) throws(ImageStoreError) -> CachedImage {
        let data = try sources.fetch(source.bytes).typedGet()
        let size = maxPixelSize == nil ? nil : measure(data)
        var released: [CachedImage] = []
        let (found, decodeAs) = state.withLock {
            $0.readFromDisk(source, maxPixelSize: maxPixelSize, size: size, released: &released)
        }
        released.removeAll()
        if let found { return found }
        return try run(nil, fetching: decodeAs, for: request, data: data).typedGet()
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
    private func startAsyncLookup(_ request: ImageRequest) -> StoreState.AsyncStart {
        var released: [CachedImage] = []
        let start = state.withLock { $0.startAsyncLookup(request, released: &released) }
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
        return state.withLock { $0.cachedImage(request, released: &released) }
    }

    /// Starts loading every request for `prefetch`, which receives each result and keeps the
    /// ids of its waiters for cancelling them.
    func prefetch(_ requests: [ImageRequest], priority: ImageLoadPriority, for prefetch: ImagePrefetch) {
        // The ids go to the prefetch before any waiter is registered, so a cancellation racing
        // with the first results always knows whom to cancel.
        let ids = state.withLock { state in requests.map { _ in state.newWaiterID() } }
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
            (ids.compactMap { state.cancel(waiter: $0) }, state.takeDownloadChanges())
        }
        apply(changes)
        for waiter in cancelled { waiter.deliver(.failure(.cancelled)) }
    }

    // MARK: Memory

    func handleMemoryPressure(_ level: MemoryPressureLevel) {
        var released: [CachedImage] = []
        state.withLock { $0.handleMemoryPressure(level, released: &released) }
    }

    func removeAll() {
        var released: [CachedImage] = []
        let (cancelled, changes) = state.withLock { ($0.removeAll(released: &released), $0.takeDownloadChanges()) }
        apply(changes)
        for waiter in cancelled { waiter.deliver(.failure(.cancelled)) }
    }

    var statistics: ImageStoreStatistics {
        var statistics = state.withLock { $0.statistics }
        let downloads = sources.network.downloader.statistics
        statistics.downloadsStarted = downloads.downloadsStarted
        statistics.downloadsCompleted = downloads.downloadsCompleted
        statistics.downloadsCancelled = downloads.downloadsCancelled
        statistics.bytesDownloaded = downloads.bytesDownloaded
        if let disk = sources.network.diskCache?.statistics {
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

    // MARK: Loading

    private func register(_ waiter: LoadWaiter, for request: ImageRequest) {
        var released: [CachedImage] = []
        let (registration, changes) = state.withLock {
            ($0.register(waiter, for: request, released: &released), $0.takeDownloadChanges())
        }
        released.removeAll()
        apply(changes)
        switch registration {
        case .finished(let result):
            waiter.deliver(result)
        case .waiting(let startLoadingThread):
            if startLoadingThread { startLoadingThreadNow() }
        }
    }

    /// Loading threads are the store's own lanes and drain the store's own queue, so the store
    /// decides the order and at most `maximumConcurrentLoads` of them run at once.
    func startLoadingThreadNow() {
        lanes.run { self.runQueuedLoads() }
    }

    private func runQueuedLoads() {
        while let (work, cancellation) = state.withLock({ $0.nextQueuedWork() }) {
            switch work {
            case .fetch(let load, let source, var data):
                if data == nil, let url = source.bytes.download {
                    // Nil while the network fetches the bytes: no loading thread waits for them.
                    data = bytesFromDiskOrDownload(url, for: load)
                    if data == nil { continue }
                }
                _ = run(load, fetching: source, for: nil, data: data, cancellation: cancellation)
            case .resolve(let load, let request):
                let resolution = sources.resolve(request.source)
                var released: [CachedImage] = []
                let next = state.withLock { $0.resolvedQueuedLoad(load, request, as: resolution, released: &released) }
                released.removeAll()
                continueQueuedLoad(load, with: next, for: request, data: nil, cancellation: cancellation)
            case .measure(let load, let fullSize, let maxPixelSize, var data):
                if data == nil, let url = fullSize.bytes.download {
                    data = bytesFromDiskOrDownload(url, for: load)
                    if data == nil { continue }
                }
                measureQueuedLoad(
                    load, source: fullSize, maxPixelSize: maxPixelSize, for: nil, data: data,
                    cancellation: cancellation)
            }
        }
    }

    private func continueQueuedLoad(
        _ load: LoadID, with next: StoreState.NextStep, for request: ImageRequest?, data: Data?,
        cancellation: DecodeCancellation
    ) {
        switch next {
        case .done(let waiters, let result):
            for waiter in waiters { waiter.deliver(result) }
        case .measure(let fullSize, let maxPixelSize):
            measureQueuedLoad(
                load, source: fullSize, maxPixelSize: maxPixelSize, for: request, data: data,
                cancellation: cancellation)
        case .fetch(let source):
            _ = run(load, fetching: source, for: request, data: data, cancellation: cancellation)
        case .merged:
            break
        }
    }

    /// Fetches the bytes of a queued thumbnail (unless `data` holds them already) to learn its
    /// pixel size, hence its key, and goes on with the bytes already fetched.
    private func measureQueuedLoad(
        _ load: LoadID, source fullSize: ImageSource, maxPixelSize: Int, for request: ImageRequest?, data: Data?,
        cancellation: DecodeCancellation
    ) {
        if cancellation.shouldStop() {
            stop(load, decoded: false, reservedCost: 0)
            return
        }
        let bytes: Data
        switch data.map({ Result<Data, ImageStoreError>.success($0) }) ?? sources.fetch(fullSize.bytes) {
        case .success(let fetched):
            bytes = fetched
        case .failure(let error):
            _ = finish(load, of: fullSize.key, for: request, result: .failure(error))
            return
        }
        let size = measure(bytes)
        var released: [CachedImage] = []
        let next = state.withLock {
            $0.measuredQueuedLoad(load, source: fullSize, maxPixelSize: maxPixelSize, size: size, released: &released)
        }
        released.removeAll()
        continueQueuedLoad(load, with: next, for: request, data: bytes, cancellation: cancellation)
    }

    /// Fetches (unless `data` holds the bytes already) and decodes `source` for `load`, stores
    /// the image and hands the result to the load's waiters.
    ///
    /// - Parameter cancellation: A loading thread's, checked before fetching and before decoding
    ///   and bound as ``DecodeCancellation/current`` during the decode; nil for a synchronous
    ///   caller, who always wants the image.
    /// - Returns: The result; `.cancelled` (owed to nobody) if the load stopped.
    private func run(
        _ load: LoadID?, fetching source: ImageSource, for request: ImageRequest?, data: Data?,
        cancellation: DecodeCancellation? = nil
    ) -> Result<CachedImage, ImageStoreError> {
        if let load, let cancellation, cancellation.shouldStop() {
            return stop(load, decoded: false, reservedCost: 0)
        }
        let key = source.key
        let bytes: Data
        if let data {
            bytes = data
        } else {
            switch sources.fetch(source.bytes) {
            case .success(let fetched): bytes = fetched
            case .failure(let error): return finish(load, of: key, for: request, result: .failure(error))
            }
        }
        if let load, let cancellation, cancellation.shouldStop() {
            return stop(load, decoded: false, reservedCost: 0)
        }
        let reservedCost = reserveDecodingCost(of: bytes, for: key)
        guard let admittedBytes = admitDecode(of: bytes, for: key, cancellation: cancellation) else {
            return load.map { stop($0, decoded: false, reservedCost: reservedCost) } ?? .failure(.cancelled)
        }
        defer { decodeAdmission.release(admittedBytes) }
        let result: Result<CachedImage, ImageStoreError>
        var isDamaged = false
        do {
            let decoded =
                if let cancellation {
                    try DecodeCancellation.current.withValue(cancellation) {
                        try decode(bytes, key.scale, key.maxPixelSize)
                    }
                } else {
                    try decode(bytes, key.scale, key.maxPixelSize)
                }
            result = .success(decoded.image)
            isDamaged = decoded.isDamaged
        } catch {
            if let load, let cancellation, cancellation.hasStopped {
                return stop(load, decoded: true, reservedCost: reservedCost)
            }
            let failure = source.bytes.decodingFailure(reason: String(describing: error))
            // Refused for its size, the same bytes may still make a thumbnail.
            if (error as? any SizeLimitReporting)?.exceedsSizeLimit != true {
                sources.rejected(source.bytes, error: failure)
            }
            result = .failure(failure)
        }
        return finish(
            load, of: key, for: request, result: result, decoded: isDamaged ? .damaged : .intact,
            reservedCost: reservedCost)
    }

    /// Ends a load that stopped because nobody waits for it any more (or queues it again for
    /// whoever joined it after it stopped).
    @discardableResult
    private func stop(_ load: LoadID, decoded: Bool, reservedCost: Int) -> Result<CachedImage, ImageStoreError> {
        state.withLock { $0.stoppedLoad(load, decoded: decoded, reservedCost: reservedCost) }
        return .failure(.cancelled)
    }

    /// Under a live-cost limit, reserves what the image about to be decoded from `bytes` will
    /// cost and trims the LRU to make room, so the limit holds while it is decoded too: a
    /// 12-MiB photo opened over a full LRU of thumbnails would otherwise exist beside all of
    /// them until it is stored. The cost is its pixel count from the header (the thumbnail's
    /// for a thumbnail key) at 4 bytes a pixel, the most any decoder here produces.
    ///
    /// - Returns: The bytes reserved, for ``finish(_:of:for:result:decoded:reservedCost:)`` to
    ///   release; 0 without a limit or when the decoder cannot read the size.
    private func reserveDecodingCost(of bytes: Data, for key: ImageKey) -> Int {
        guard hasLiveCostLimit, var size = measure(bytes), size.width > 0, size.height > 0 else { return 0 }
        if let maxPixelSize = key.maxPixelSize,
            let thumbnail = ThumbnailSize(width: size.width, height: size.height, maxPixelSize: maxPixelSize)
        {
            size = PixelSize(width: thumbnail.width, height: thumbnail.height)
        }
        // Sizes come from untrusted headers (and any decoder): at most 1 TiB a reservation, so
        // that the sum of concurrent reservations cannot overflow either.
        let pixels = size.width.multipliedReportingOverflow(by: size.height)
        let bytes = pixels.partialValue.multipliedReportingOverflow(by: 4)
        let cost =
            pixels.overflow || bytes.overflow
            ? Self.largestReservation : min(bytes.partialValue, Self.largestReservation)
        state.withLock { $0.reserveDecodingCost(cost) }
        enforceLiveCostLimit()
        return cost
    }

    /// Ends a load: stores its image and hands the result to its waiters.
    private func finish(
        _ load: LoadID?, of key: ImageKey, for request: ImageRequest?,
        result: Result<CachedImage, ImageStoreError>, decoded: StoreState.DecoderOutcome? = nil, reservedCost: Int = 0
    ) -> Result<CachedImage, ImageStoreError> {
        var released: [CachedImage] = []
        let waiters = state.withLock {
            $0.finishLoad(
                load, of: key, for: request, result: result, decoded: decoded, reservedCost: reservedCost,
                released: &released)
        }
        released.removeAll()
        if case .success = result { enforceLiveCostLimit() }
        for waiter in waiters { waiter.deliver(result) }
        return result
    }
}

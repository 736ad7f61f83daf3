/// Everything mutable in an ``ImageStore``, reached only under its lock.
///
/// Each method is one critical section: it updates the state and returns what the caller must do
/// next (resolve, load, wait, deliver results) plus the images to release once the lock is
/// dropped. Nothing here touches the file system, decodes, resumes a waiter or frees an image.
struct StoreState: Sendable {
    /// A synchronous lookup's next step after a critical section.
    enum Step {
        /// Done: the image was in memory.
        case found(CachedImage)
        /// Done: there is no image, for this reason.
        case failed(ImageStoreError)
        /// The request is not resolved yet: resolve it unlocked, then call ``resolved(_:as:released:)``.
        case resolve
        /// Load the file on this thread, then call ``finishLoad(_:of:for:result:decoded:released:)``.
        /// The load is nil when loads are not shared (`.uncached`).
        case load(ResourceKey, LoadID?)
        /// Another thread is running the load: wait for its result.
        case wait(LoadLatch)
    }

    /// What memory alone says about a request.
    enum MemoryLookup {
        case found(CachedImage)
        case failed(ImageStoreError)
        /// The request was never resolved (or its resolution was forgotten).
        case unresolved
        /// The file is known but its image is not in memory.
        case missing(ResourceKey)
    }

    /// The first step of an asynchronous lookup.
    enum AsyncStart {
        case found(CachedImage)
        case failed(ImageStoreError)
        /// Not in memory: register a waiter with this id.
        case miss(WaiterID)
    }

    /// What became of a waiter handed to ``register(_:for:released:)``.
    enum Registration {
        /// It needs no load: deliver this result to it now.
        case finished(Result<CachedImage, ImageStoreError>)
        /// It waits for a load; start a loading thread if asked to.
        case waiting(startLoadingThread: Bool)
    }

    /// A queued load a loading thread took.
    enum QueuedWork {
        case resolve(LoadID, LookupRequest)
        case read(LoadID, ResourceKey)
    }

    /// What a loading thread does after resolving a queued request.
    enum AfterResolution {
        /// The load is over: deliver `result` to `waiters`.
        case done([LoadWaiter], Result<CachedImage, ImageStoreError>)
        /// Read and decode the file for this load.
        case read(ResourceKey)
        /// Another load of the same file took the waiters over.
        case merged
    }

    var storage: any ImageCacheStorage
    var resolutions = ResolutionCache()
    var inFlight = InFlightLoads()
    var counters = ImageStoreStatistics()
    let maximumConcurrentLoads: Int
    private var loadingThreads = 0
    private var lastWaiterID = 0
    /// Async waiters between their miss and their registration, when a cancellation must be kept
    /// for the registration to see.
    private var unregisteredWaiters: Set<WaiterID> = []
    private var cancelledBeforeRegistration: Set<WaiterID> = []

    init(policy: CachePolicy, maximumConcurrentLoads: Int) {
        storage = policy.makeStorage()
        self.maximumConcurrentLoads = maximumConcurrentLoads
    }

    // MARK: Synchronous lookups

    /// The first critical section of a synchronous lookup.
    mutating func lookUp(_ request: LookupRequest, released: inout [CachedImage]) -> Step {
        switch lookUpInMemory(request, released: &released) {
        case .found(let image): .found(image)
        case .failed(let error): .failed(error)
        case .unresolved: .resolve
        case .missing(let key): joinSynchronously(key, for: request)
        }
    }

    /// Records a resolution made outside the lock and continues the synchronous lookup with it.
    mutating func resolved(
        _ request: LookupRequest, as resolution: Result<ResourceKey, ImageStoreError>, released: inout [CachedImage]
    ) -> Step {
        resolutions.remember(resolution, for: request)
        switch resolution {
        case .failure(let error):
            count(.miss)
            return .failed(error)
        case .success(let key):
            // Another spelling of the name may have brought the image in meanwhile.
            var hint = SlotHint()
            if case .found(let image) = counted(probe(key, hint: &hint, released: &released), key: key) {
                return .found(image)
            }
            // Async lookups of the same request queued unresolved join this caller's load.
            if let queued = inFlight.load(of: .request(request)), inFlight.isQueued(queued) {
                _ = inFlight.retarget(queued, to: key)
            }
            return joinSynchronously(key, for: request)
        }
    }

    /// A synchronous caller never waits behind queued work: it takes a queued load over and runs
    /// it itself, and waits only for a load already running.
    private mutating func joinSynchronously(_ key: ResourceKey, for request: LookupRequest) -> Step {
        guard storage.sharesImages else {
            count(.miss)
            return .load(key, nil)
        }
        guard let load = inFlight.load(of: .file(key)) else {
            count(.miss)
            return .load(key, inFlight.create(.file(key), request: request, shared: true, running: true))
        }
        count(.coalesced)
        if inFlight.isQueued(load) {
            inFlight.start(load)
            counters.loadsTakenOver += 1
            return .load(key, load)
        }
        let latch = LoadLatch()
        inFlight.add(
            LoadWaiter(id: newWaiterID(), priority: .veryHigh, delivery: .sync(latch)), request: request, to: load)
        return .wait(latch)
    }

    // MARK: Asynchronous lookups and prefetches

    /// The first critical section of an async lookup: memory only.
    mutating func startAsyncLookup(_ request: LookupRequest, released: inout [CachedImage]) -> AsyncStart {
        switch lookUpInMemory(request, released: &released) {
        case .found(let image):
            return .found(image)
        case .failed(let error):
            return .failed(error)
        case .unresolved, .missing:
            let id = newWaiterID()
            unregisteredWaiters.insert(id)
            return .miss(id)
        }
    }

    /// A memory-only lookup that never loads: the image, or nil.
    mutating func cachedImage(_ request: LookupRequest, released: inout [CachedImage]) -> CachedImage? {
        switch lookUpInMemory(request, released: &released) {
        case .found(let image):
            return image
        case .failed:
            return nil
        case .unresolved, .missing:
            count(.miss)
            return nil
        }
    }

    /// A fresh waiter id.
    mutating func newWaiterID() -> WaiterID {
        lastWaiterID += 1
        return lastWaiterID
    }

    /// Makes `waiter` wait for the load of `request`, joining the load in progress or queueing a
    /// new one; or finishes it at once if memory answers (the image arrived meanwhile, the
    /// resolution is a remembered failure, or the waiter was cancelled before it got here).
    mutating func register(
        _ waiter: LoadWaiter, for request: LookupRequest, released: inout [CachedImage]
    ) -> Registration {
        unregisteredWaiters.remove(waiter.id)
        if cancelledBeforeRegistration.remove(waiter.id) != nil {
            count(.miss)
            counters.waitersCancelled += 1
            return .finished(.failure(.cancelled))
        }
        let target: LoadOperation.Target
        switch lookUpInMemory(request, released: &released) {
        case .found(let image): return .finished(.success(image))
        case .failed(let error): return .finished(.failure(error))
        case .unresolved: target = .request(request)
        case .missing(let key): target = .file(key)
        }
        if storage.sharesImages, let load = inFlight.load(of: target) {
            count(.coalesced)
            inFlight.add(waiter, request: request, to: load)
            return .waiting(startLoadingThread: false)
        }
        count(.miss)
        counters.loadsScheduled += 1
        let load = inFlight.create(target, request: request, shared: storage.sharesImages, running: false)
        inFlight.add(waiter, request: request, to: load)
        guard loadingThreads < maximumConcurrentLoads else { return .waiting(startLoadingThread: false) }
        loadingThreads += 1
        return .waiting(startLoadingThread: true)
    }

    /// Removes a waiting waiter, dropping its load if it was queued and nobody else waits.
    ///
    /// - Returns: The waiter, owed `.cancelled`; nil if it already has its result, or has not
    ///   registered yet (then its registration finds it cancelled).
    mutating func cancel(waiter id: WaiterID) -> LoadWaiter? {
        if unregisteredWaiters.remove(id) != nil {
            cancelledBeforeRegistration.insert(id)
            return nil
        }
        guard let (waiter, droppedLoad) = inFlight.remove(waiter: id) else { return nil }
        counters.waitersCancelled += 1
        if droppedLoad { counters.loadsCancelledBeforeStart += 1 }
        return waiter
    }

    // MARK: Loading threads

    /// The next queued load for a loading thread, or nil when the queue is empty (the thread
    /// then ends).
    mutating func nextQueuedWork() -> QueuedWork? {
        guard let (load, target) = inFlight.startNextQueued() else {
            loadingThreads -= 1
            return nil
        }
        switch target {
        case .file(let key): return .read(load, key)
        case .request(let request): return .resolve(load, request)
        }
    }

    /// Records the resolution a loading thread made for a queued request.
    mutating func resolvedQueuedLoad(
        _ load: LoadID, _ request: LookupRequest, as resolution: Result<ResourceKey, ImageStoreError>,
        released: inout [CachedImage]
    ) -> AfterResolution {
        resolutions.remember(resolution, for: request)
        switch resolution {
        case .failure(let error):
            return .done(inFlight.finish(load)?.waiters ?? [], .failure(error))
        case .success(let key):
            var hint = SlotHint()
            switch probe(key, hint: &hint, released: &released) {
            case .strongHit(let image), .weakHit(let image):
                return .done(inFlight.finish(load)?.waiters ?? [], .success(image))
            case .miss:
                return inFlight.retarget(load, to: key) == load ? .read(key) : .merged
            }
        }
    }

    /// Stores a finished load and ends its in-flight entry. A failure is not cached; a file that
    /// vanished or changed also makes the resolutions that led to it stale.
    ///
    /// - Returns: The waiters owed the result.
    mutating func finishLoad(
        _ load: LoadID?, of key: ResourceKey, for request: LookupRequest?,
        result: Result<CachedImage, ImageStoreError>, decoded: Bool, released: inout [CachedImage]
    ) -> [LoadWaiter] {
        if decoded { counters.decodes += 1 }
        let operation = load.flatMap { inFlight.finish($0) }
        switch result {
        case .success(let image):
            let before = released.count
            storage.store(image, for: key, released: &released)
            counters.evictions += released.count - before
        case .failure(.notFound), .failure(.unreadable):
            for stale in operation?.requests ?? [] { resolutions.forget(stale) }
            if let request { resolutions.forget(request) }
        case .failure:
            break
        }
        return operation?.waiters ?? []
    }

    // MARK: Memory

    mutating func handleMemoryPressure(_ level: MemoryPressureLevel, released: inout [CachedImage]) {
        let before = released.count
        storage.handleMemoryPressure(level, released: &released)
        counters.evictions += released.count - before
    }

    /// Drops the strong references and resolutions, and cancels every queued load.
    ///
    /// - Returns: The waiters of the cancelled loads, owed `.cancelled`.
    mutating func removeAll(released: inout [CachedImage]) -> [LoadWaiter] {
        storage.removeAll(released: &released)
        resolutions.removeAll()
        let cancelled = inFlight.removeQueued()
        counters.loadsCancelledBeforeStart += cancelled.count
        let waiters = cancelled.flatMap(\.waiters)
        counters.waitersCancelled += waiters.count
        return waiters
    }

    var statistics: ImageStoreStatistics {
        var statistics = counters
        statistics.strongCost = storage.strongCost
        statistics.strongCount = storage.strongCount
        statistics.weakCount = storage.weakCount
        return statistics
    }

    // MARK: Lookup internals

    /// Looks `request` up in memory, counting hits and remembered failures.
    private mutating func lookUpInMemory(_ request: LookupRequest, released: inout [CachedImage]) -> MemoryLookup {
        if case .name(let name) = request, let index = resolutions.index(ofName: name) {
            let file = resolutions[index]
            var hint = file.hint
            let found = probe(file.key, hint: &hint, released: &released)
            if hint != file.hint { resolutions.setHint(hint, at: index) }
            return counted(found, key: file.key)
        }
        switch resolutions[request] {
        case nil:
            return .unresolved
        case .failure(let error):
            count(.miss)
            return .failed(error)
        case .success(let key):
            var hint = SlotHint()
            return counted(probe(key, hint: &hint, released: &released), key: key)
        }
    }

    private mutating func probe(_ key: ResourceKey, hint: inout SlotHint, released: inout [CachedImage]) -> CacheLookup
    {
        let before = released.count
        let found = storage.lookup(key, hint: &hint, released: &released)
        counters.evictions += released.count - before
        return found
    }

    private mutating func counted(_ found: CacheLookup, key: ResourceKey) -> MemoryLookup {
        switch found {
        case .strongHit(let image):
            count(.strongHit)
            return .found(image)
        case .weakHit(let image):
            count(.weakHit)
            return .found(image)
        case .miss:
            return .missing(key)
        }
    }

    private enum Outcome { case strongHit, weakHit, miss, coalesced }

    /// Counts one lookup by how it ended, so `lookups` always adds up.
    private mutating func count(_ outcome: Outcome) {
        counters.lookups += 1
        switch outcome {
        case .strongHit: counters.strongHits += 1
        case .weakHit: counters.weakHits += 1
        case .miss: counters.misses += 1
        case .coalesced: counters.coalescedLoads += 1
        }
    }
}

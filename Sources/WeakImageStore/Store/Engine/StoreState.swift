import Foundation

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
        /// The request is not resolved yet: resolve it unlocked, then call
        /// ``resolved(_:as:released:)``.
        case resolve
        /// The thumbnail's key depends on the image's pixel size, which is not known yet: fetch
        /// the bytes and read their header unlocked, then call ``measured(_:source:size:released:)``.
        case measure(ImageSource, maxPixelSize: Int)
        /// Load the image on this thread, then call ``finishLoad(_:of:for:result:decoded:reservedCost:released:)``.
        /// The load is nil when loads are not shared (`.uncached`).
        case load(ImageSource, LoadID?)
        /// Another thread is running the load: wait for its result.
        case wait(LoadLatch)
        /// A network image memory does not hold, and a disk cache that may: read a fresh entry
        /// unlocked (of the full-size image; `source` is the thumbnail's when its key is known),
        /// then call ``readFromDisk(_:maxPixelSize:size:released:)`` and decode it without
        /// joining any load, since a load in flight may be waiting on the network.
        case readDisk(ImageSource, maxPixelSize: Int?)
    }

    /// What memory alone says about a request.
    enum MemoryLookup {
        case found(CachedImage)
        case failed(ImageStoreError)
        /// The request was never resolved (or its resolution was forgotten).
        case unresolved
        /// The source is known but its image is not in memory.
        case missing(ImageSource)
        /// The source is known, but which key a thumbnail of it is depends on a size not known yet.
        case unsized(ImageSource, maxPixelSize: Int)
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

    /// A queued load a loading thread took; `data` is its downloaded bytes, if it has any.
    enum QueuedWork {
        case resolve(LoadID, ImageRequest)
        case measure(LoadID, ImageSource, maxPixelSize: Int, data: Data?)
        case fetch(LoadID, ImageSource, data: Data?)
    }

    /// What a loading thread does after resolving a queued request or measuring its image.
    enum NextStep {
        /// The load is over: deliver `result` to `waiters`.
        case done([LoadWaiter], Result<CachedImage, ImageStoreError>)
        /// Fetch the bytes and read their header for this load, then call
        /// ``measuredQueuedLoad(_:source:maxPixelSize:size:released:)``.
        case measure(ImageSource, maxPixelSize: Int)
        /// Fetch (unless already fetched) and decode the bytes for this load.
        case fetch(ImageSource)
        /// Another load of the same image took the waiters over.
        case merged
    }

    var storage: any ImageCacheStorage
    var resolutions = ResolutionCache()
    var pixelSizes = PixelSizeCache()
    var inFlight = InFlightLoads()
    var counters = ImageStoreStatistics()
    var live = LiveImageLedger<ImageKey>()
    var budget = LiveCostBudget()
    /// Bytes of the live-cost limit reserved for decodes in progress: what their images will
    /// cost once they exist. 0 without a limit.
    var decodingCost = 0
    let maximumConcurrentLoads: Int
    /// Whether synchronous lookups of network images may read the disk cache.
    let readsDownloadsFromDisk: Bool
    private(set) var loadingThreads = 0
    private var lastWaiterID = 0
    /// Async waiters between their miss and their registration, when a cancellation must be kept
    /// for the registration to see.
    private var unregisteredWaiters: Set<WaiterID> = []
    private var cancelledBeforeRegistration: Set<WaiterID> = []

    init(policy: CachePolicy, maximumConcurrentLoads: Int, readsDownloadsFromDisk: Bool = false) {
        storage = policy.makeStorage()
        self.maximumConcurrentLoads = maximumConcurrentLoads
        self.readsDownloadsFromDisk = readsDownloadsFromDisk
    }

    // MARK: Synchronous lookups

    /// The first critical section of a synchronous lookup.
    mutating func lookUp(_ request: ImageRequest, released: inout [CachedImage]) -> Step {
        switch lookUpInMemory(request, released: &released) {
        case .found(let image): .found(image)
        case .failed(let error): .failed(error)
        case .unresolved: .resolve
        case .unsized(let source, let maxPixelSize):
            neverDownloadsSynchronously(source, maxPixelSize: maxPixelSize)
                ?? .measure(source, maxPixelSize: maxPixelSize)
        case .missing(let source):
            neverDownloadsSynchronously(source, maxPixelSize: nil) ?? joinSynchronously(source, for: request)
        }
    }

    /// The hit path of a full-size name: its image if the name resolved before and memory holds
    /// the image, counted as a hit. Nil leaves the lookup to ``lookUp(_:released:)``, which counts
    /// it; that small return, unlike a ``Step``, comes back in registers.
    mutating func hit(named name: String, released: inout [CachedImage]) -> CachedImage? {
        // A miss here is probed again by the full lookup: only storages whose probes are free.
        guard !storage.countsLookups, let index = resolutions.index(ofName: name) else { return nil }
        return countedHit(lookUpFile(at: index, released: &released))
    }

    /// Ends a synchronous lookup of a network image that memory does not hold, or sends it to
    /// the disk cache: a synchronous lookup never waits on the network, nor joins a download.
    ///
    /// - Parameter maxPixelSize: The thumbnail size of a source whose key is not known yet.
    private mutating func neverDownloadsSynchronously(_ source: ImageSource, maxPixelSize: Int?) -> Step? {
        guard let url = source.bytes.download else { return nil }
        count(.miss)
        guard readsDownloadsFromDisk else { return .failed(.notInMemoryOrOnDisk(url.url)) }
        return .readDisk(source, maxPixelSize: maxPixelSize)
    }

    /// Continues a synchronous lookup that read a network image's bytes from disk.
    ///
    /// - Parameters:
    ///   - source: The source ``Step/readDisk(_:maxPixelSize:)`` named.
    ///   - maxPixelSize: The thumbnail size, when the key was not known.
    ///   - size: The pixel size the bytes' header gave, when `maxPixelSize` is set.
    /// - Returns: The image memory holds under the key the size gives, if any, and the source to
    ///   decode the bytes as otherwise.
    mutating func readFromDisk(
        _ source: ImageSource, maxPixelSize: Int?, size: PixelSize?, released: inout [CachedImage]
    ) -> (found: CachedImage?, decodeAs: ImageSource) {
        guard let maxPixelSize else { return (nil, source) }
        pixelSizes.remember(size, for: source.key.source)
        let reduced = source.reduced(to: maxPixelSize, imageSize: size)
        var hint = SlotHint()
        switch probe(reduced.key, hint: &hint, released: &released) {
        case .strongHit(let image), .weakHit(let image): return (image, reduced)
        case .miss: return (nil, reduced)
        }
    }

    /// Records a resolution made outside the lock and continues the synchronous lookup with it.
    mutating func resolved(
        _ request: ImageRequest, as resolution: Result<ImageSource, ImageStoreError>, released: inout [CachedImage]
    ) -> Step {
        resolutions.remember(resolution, for: request.source)
        switch resolution {
        case .failure(let error):
            count(.miss)
            return .failed(error)
        case .success(let fullSize):
            // Async lookups of the same request queued unresolved join this caller's work.
            let unresolved = LoadOperation.Target.request(request)
            guard let maxPixelSize = request.maxPixelSize else {
                return continueSynchronously(with: fullSize, for: request, absorbing: unresolved, released: &released)
            }
            guard let source = fullSize.reduced(to: maxPixelSize, knownSizes: pixelSizes) else {
                return .measure(fullSize, maxPixelSize: maxPixelSize)
            }
            return continueSynchronously(with: source, for: request, absorbing: unresolved, released: &released)
        }
    }

    /// Records the pixel size a synchronous caller read from the bytes' header and continues its
    /// thumbnail lookup with the key it gives.
    mutating func measured(
        _ request: ImageRequest, source fullSize: ImageSource, maxPixelSize: Int, size: PixelSize?,
        released: inout [CachedImage]
    ) -> Step {
        pixelSizes.remember(size, for: fullSize.key.source)
        let source = fullSize.reduced(to: maxPixelSize, imageSize: size)
        return continueSynchronously(
            with: source, for: request, absorbing: .unsized(fullSize, maxPixelSize: maxPixelSize), released: &released)
    }

    /// Ends a synchronous thumbnail lookup whose bytes could not be fetched to learn their size.
    mutating func failedToMeasure(_ request: ImageRequest, error: ImageStoreError) {
        count(.miss)
        switch error {
        case .notFound, .unreadable: resolutions.forget(request.source)
        default: break
        }
    }

    /// Finds `source`'s image in memory or joins its load; a queued load of `absorbing` (the
    /// same image under a less precise target) joins this caller's load.
    private mutating func continueSynchronously(
        with source: ImageSource, for request: ImageRequest, absorbing queuedTarget: LoadOperation.Target,
        released: inout [CachedImage]
    ) -> Step {
        // Another spelling of the name may have brought the image in meanwhile.
        var hint = SlotHint()
        if case .found(let image) = counted(probe(source.key, hint: &hint, released: &released)) {
            return .found(image)
        }
        if let queued = inFlight.load(of: queuedTarget), inFlight.isQueued(queued) {
            _ = inFlight.retarget(queued, to: .image(source))
        }
        return joinSynchronously(source, for: request)
    }

    /// A synchronous caller never waits behind queued work: it takes a queued load over and runs
    /// it itself, and waits only for a load already running.
    private mutating func joinSynchronously(_ source: ImageSource, for request: ImageRequest) -> Step {
        guard storage.sharesImages else {
            count(.miss)
            return .load(source, nil)
        }
        guard let load = inFlight.load(of: .image(source)) else {
            count(.miss)
            return .load(source, inFlight.create(.image(source), request: request, shared: true, running: true))
        }
        count(.coalesced)
        if inFlight.isQueued(load) {
            inFlight.start(load)
            counters.loadsTakenOver += 1
            return .load(source, load)
        }
        let latch = LoadLatch()
        inFlight.add(
            LoadWaiter(id: newWaiterID(), priority: .veryHigh, delivery: .sync(latch)), request: request, to: load)
        return .wait(latch)
    }

    // MARK: Asynchronous lookups and prefetches

    /// The first critical section of an async lookup: memory only.
    mutating func startAsyncLookup(_ request: ImageRequest, released: inout [CachedImage]) -> AsyncStart {
        switch lookUpInMemory(request, released: &released) {
        case .found(let image):
            return .found(image)
        case .failed(let error):
            return .failed(error)
        case .unresolved, .missing, .unsized:
            let id = newWaiterID()
            unregisteredWaiters.insert(id)
            return .miss(id)
        }
    }

    /// A memory-only lookup that never loads: the image, or nil.
    mutating func cachedImage(_ request: ImageRequest, released: inout [CachedImage]) -> CachedImage? {
        switch lookUpInMemory(request, released: &released) {
        case .found(let image):
            return image
        case .failed:
            return nil
        case .unresolved, .missing, .unsized:
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
        _ waiter: LoadWaiter, for request: ImageRequest, released: inout [CachedImage]
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
        case .unsized(let fullSize, let maxPixelSize): target = .unsized(fullSize, maxPixelSize: maxPixelSize)
        case .missing(let source): target = .image(source)
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

    /// Removes a waiting waiter, dropping its load if it was queued (or downloading) and nobody
    /// else waits; the download changes this makes wait in ``InFlightLoads/downloadChanges``.
    ///
    /// - Returns: The waiter, owed `.cancelled`; nil if it already has its result, or has not
    ///   registered yet (then its registration finds it cancelled).
    mutating func cancel(waiter id: WaiterID) -> LoadWaiter? {
        if unregisteredWaiters.remove(id) != nil {
            cancelledBeforeRegistration.insert(id)
            return nil
        }
        let downloading = inFlight.isDownloading(waiter: id)
        guard let (waiter, droppedLoad) = inFlight.remove(waiter: id) else { return nil }
        counters.waitersCancelled += 1
        if droppedLoad {
            // A load waiting for its download had started: its download stops at the socket.
            if downloading { counters.loadsStoppedWhileRunning += 1 } else { counters.loadsCancelledBeforeStart += 1 }
        }
        return waiter
    }

    // MARK: Loading threads

    /// The next queued load for a loading thread, with the cancellation the thread polls, or
    /// nil when the queue is empty (the thread then ends).
    mutating func nextQueuedWork() -> (QueuedWork, DecodeCancellation)? {
        guard let (load, target, cancellation, data) = inFlight.startNextQueued() else {
            loadingThreads -= 1
            return nil
        }
        switch target {
        case .image(let source):
            return (.fetch(load, source, data: data), cancellation)
        case .request(let request):
            return (.resolve(load, request), cancellation)
        case .unsized(let fullSize, let maxPixelSize):
            return (.measure(load, fullSize, maxPixelSize: maxPixelSize, data: data), cancellation)
        }
    }

    // MARK: Downloads

    /// A loading thread hands `load` to the downloader and goes on with other work.
    ///
    /// - Returns: The priority to download at; nil if nobody waits for the load any more.
    mutating func awaitDownload(_ load: LoadID) -> ImageLoadPriority? {
        inFlight.awaitDownload(load)
    }

    /// Records the ticket of `load`'s download; false if the download is no longer wanted.
    mutating func recordDownloadTicket(_ ticket: DownloadTicket, for load: LoadID) -> Bool {
        inFlight.recordDownloadTicket(ticket, for: load)
    }

    /// Queues a load whose bytes arrived for decoding, starting a loading thread if one is free.
    ///
    /// - Returns: Whether to start a loading thread.
    mutating func downloaded(_ data: Data, for load: LoadID) -> Bool {
        guard inFlight.downloaded(data, for: load), loadingThreads < maximumConcurrentLoads else { return false }
        loadingThreads += 1
        return true
    }

    /// Ends a load whose download failed.
    ///
    /// - Returns: The waiters owed the error.
    mutating func downloadFailed(for load: LoadID) -> [LoadWaiter] {
        guard let operation = inFlight.operations[load], operation.isDownloading else { return [] }
        return inFlight.finish(load)?.waiters ?? []
    }

    /// The download changes made under the lock since the last call, to carry out after it.
    mutating func takeDownloadChanges() -> [InFlightLoads.DownloadChange] {
        defer { inFlight.downloadChanges.removeAll() }
        return inFlight.downloadChanges
    }

    /// Ends a load that stopped part-way because its last waiter left, or queues it again for
    /// the waiters that joined after it stopped (the calling loading thread takes it next).
    ///
    /// - Parameters:
    ///   - decoded: Whether the decoder ran (and stopped), as opposed to stopping before it.
    ///   - reservedCost: The live-cost reservation of its decode, now released.
    mutating func stoppedLoad(_ load: LoadID, decoded: Bool, reservedCost: Int) {
        if decoded { counters.decodes += 1 }
        decodingCost -= reservedCost
        counters.loadsStoppedWhileRunning += 1
        if inFlight.operations[load]?.waiters.isEmpty ?? true {
            _ = inFlight.finish(load)
        } else {
            inFlight.restart(load)
        }
    }

    /// Records the resolution a loading thread made for a queued request.
    mutating func resolvedQueuedLoad(
        _ load: LoadID, _ request: ImageRequest, as resolution: Result<ImageSource, ImageStoreError>,
        released: inout [CachedImage]
    ) -> NextStep {
        resolutions.remember(resolution, for: request.source)
        switch resolution {
        case .failure(let error):
            return .done(inFlight.finish(load)?.waiters ?? [], .failure(error))
        case .success(let fullSize):
            guard let maxPixelSize = request.maxPixelSize else {
                return continueQueuedLoad(load, with: fullSize, released: &released)
            }
            if let source = fullSize.reduced(to: maxPixelSize, knownSizes: pixelSizes) {
                return continueQueuedLoad(load, with: source, released: &released)
            }
            let target = LoadOperation.Target.unsized(fullSize, maxPixelSize: maxPixelSize)
            return inFlight.retarget(load, to: target) == load
                ? .measure(fullSize, maxPixelSize: maxPixelSize) : .merged
        }
    }

    /// Records the pixel size a loading thread read from the bytes' header for a queued thumbnail.
    mutating func measuredQueuedLoad(
        _ load: LoadID, source fullSize: ImageSource, maxPixelSize: Int, size: PixelSize?,
        released: inout [CachedImage]
    ) -> NextStep {
        pixelSizes.remember(size, for: fullSize.key.source)
        return continueQueuedLoad(load, with: fullSize.reduced(to: maxPixelSize, imageSize: size), released: &released)
    }

    /// Finishes a queued load from memory if its image arrived meanwhile, hands its waiters to
    /// the load of the same image if there is one, or keeps it for fetching `source`.
    private mutating func continueQueuedLoad(
        _ load: LoadID, with source: ImageSource, released: inout [CachedImage]
    ) -> NextStep {
        var hint = SlotHint()
        switch probe(source.key, hint: &hint, released: &released) {
        case .strongHit(let image), .weakHit(let image):
            return .done(inFlight.finish(load)?.waiters ?? [], .success(image))
        case .miss:
            return inFlight.retarget(load, to: .image(source)) == load ? .fetch(source) : .merged
        }
    }

    /// How a finished load's decoder ended, when it ran.
    enum DecoderOutcome {
        /// The file was whole, or the decoder failed.
        case intact
        /// The decoder showed a damaged file, as well as it could.
        case damaged
    }

    /// Stores a finished load and ends its in-flight entry. A failure is not cached; a file that
    /// vanished or changed also makes the resolutions that led to it stale.
    ///
    /// - Parameter decoded: Whether the decoder ran, and how it ended; nil if it did not.
    /// - Returns: The waiters owed the result.
    mutating func finishLoad(
        _ load: LoadID?, of key: ImageKey, for request: ImageRequest?,
        result: Result<CachedImage, ImageStoreError>, decoded: DecoderOutcome?, reservedCost: Int,
        released: inout [CachedImage]
    ) -> [LoadWaiter] {
        if let decoded {
            counters.decodes += 1
            if decoded == .damaged { counters.damagedDecodes += 1 }
        }
        // The image, if any, now counts as live itself.
        decodingCost -= reservedCost
        let operation = load.flatMap { inFlight.finish($0) }
        switch result {
        case .success(let image):
            let before = released.count
            storeLoaded(image, for: key, released: &released)
            counters.evictions += released.count - before
        case .failure(.notFound), .failure(.unreadable):
            for stale in operation?.requests ?? [] { resolutions.forget(stale.source) }
            if let request { resolutions.forget(request.source) }
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

    /// Drops the strong references and resolutions, and cancels every queued load and every
    /// download (their changes wait in ``InFlightLoads/downloadChanges``).
    ///
    /// - Returns: The waiters of the cancelled loads, owed `.cancelled`.
    mutating func removeAll(released: inout [CachedImage]) -> [LoadWaiter] {
        storage.removeAll(released: &released)
        resolutions.removeAll()
        pixelSizes.removeAll()
        let cancelled = inFlight.removeQueuedAndDownloading()
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
        addLiveImageStatistics(to: &statistics)
        return statistics
    }

    // MARK: Lookup internals

    /// Looks `request` up in memory, counting hits and remembered failures. Inlined, like the
    /// helpers below, so a hit's image is not copied (retained and released) from enum to enum.
    @inline(__always)
    private mutating func lookUpInMemory(_ request: ImageRequest, released: inout [CachedImage]) -> MemoryLookup {
        // Full-size names: the slot hint remembered with the resolution.
        if request.maxPixelSize == nil, case .named(let name) = request.source,
            let index = resolutions.index(ofName: name)
        {
            return counted(lookUpFile(at: index, released: &released))
                ?? .missing(resolutions.file(at: index).source)
        }
        switch ImageSources.resolvedWithoutFileSystem(request.source) ?? resolutions[request.source] {
        case nil:
            return .unresolved
        case .failure(let error):
            count(.miss)
            return .failed(error)
        case .success(let fullSize):
            var source = fullSize
            if let maxPixelSize = request.maxPixelSize {
                guard let reduced = fullSize.reduced(to: maxPixelSize, knownSizes: pixelSizes) else {
                    return .unsized(fullSize, maxPixelSize: maxPixelSize)
                }
                source = reduced
            }
            var hint = SlotHint()
            return counted(probe(source.key, hint: &hint, released: &released)) ?? .missing(source)
        }
    }

    @inline(__always)
    private mutating func lookUpFile(at index: ResolutionCache.NameIndex, released: inout [CachedImage]) -> CacheLookup
    {
        let before = released.count
        let found = resolutions.lookUpFile(at: index, in: storage, released: &released)
        counters.evictions += released.count - before
        return found
    }

    @inline(__always)
    private mutating func probe(_ key: ImageKey, hint: inout SlotHint, released: inout [CachedImage]) -> CacheLookup {
        let before = released.count
        let found = storage.lookup(key, hint: &hint, released: &released)
        counters.evictions += released.count - before
        return found
    }

    /// Counts a hit and returns it as found; nil for a miss, which is counted once its lookup ends.
    @inline(__always)
    private mutating func counted(_ found: CacheLookup) -> MemoryLookup? {
        guard let image = countedHit(found) else { return nil }
        return .found(image)
    }

    /// Counts a hit and returns its image; nil for a miss, which is counted once its lookup ends.
    @inline(__always)
    private mutating func countedHit(_ found: CacheLookup) -> CachedImage? {
        switch found {
        case .strongHit(let image):
            count(.strongHit)
            return image
        case .weakHit(let image):
            count(.weakHit)
            return image
        case .miss:
            return nil
        }
    }

    private enum Outcome { case strongHit, weakHit, miss, coalesced }

    /// Counts one lookup by how it ended, so `lookups` always adds up.
    @inline(__always)
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

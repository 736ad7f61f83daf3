import Foundation

/// Every load in flight and who waits for it, with one method per event of a load's life, each
/// returning what its driver does next (see ``LoadStep``).
///
/// It lives beside the memory state (``MemoryState``) under the store's one lock (``StoreState``);
/// its events read and update memory too (a load that finds its image arrived meanwhile ends
/// there), so they take it as an argument. Nothing here touches the file system, decodes,
/// resumes a waiter or frees an image. The two drivers — a synchronous caller and the loading
/// threads — call the same events; which one calls is the ``LoadRunner`` argument.
struct LoadStateMachine: Sendable {
    /// A queued load a loading thread took: its first step, the request to resolve when that step
    /// is ``LoadStep/resolve``, the cancellation the thread polls, and its downloaded bytes.
    struct QueuedLoad {
        let load: LoadID
        let step: LoadStep
        let request: ImageRequest?
        let cancellation: DecodeCancellation
        let data: Data?
        /// Whether it was background work (below ``LoadingThread/visiblePriority``) when taken.
        let isBackground: Bool
    }

    var inFlight = InFlightLoads()
    let maximumConcurrentLoads: Int
    /// Whether synchronous lookups of network images may read the disk cache.
    let readsDownloadsFromDisk: Bool
    private(set) var loadingThreads = 0
    /// Whether the visible lane runs: the one loading thread past `maximumConcurrentLoads`,
    /// for work on screen only.
    private(set) var visibleLaneRuns = false
    /// The background loads (prefetches) regular threads run, with the cancellations that pause
    /// them: work on screen must not wait behind them.
    private(set) var backgroundLoads: [LoadID: DecodeCancellation] = [:]
    /// The background load paused while the visible lane runs.
    private(set) var pausedLoad: LoadID?
    private var lastWaiterID = 0
    /// Async waiters between their miss and their registration, when a cancellation must be kept
    /// for the registration to see.
    private var unregisteredWaiters: Set<WaiterID> = []
    private var cancelledBeforeRegistration: Set<WaiterID> = []

    init(maximumConcurrentLoads: Int, readsDownloadsFromDisk: Bool) {
        self.maximumConcurrentLoads = maximumConcurrentLoads
        self.readsDownloadsFromDisk = readsDownloadsFromDisk
    }

    // MARK: Events of every load

    /// A synchronous lookup begins: memory answers, or the caller resolves, measures, loads,
    /// waits or reads the disk cache.
    mutating func lookUp(
        _ request: ImageRequest, memory: inout MemoryState, released: inout [CachedImage]
    ) -> LoadStep {
        switch memory.lookUp(request, released: &released) {
        case .found(let image): .finished(.success(image), waiters: [])
        case .failed(let error): .finished(.failure(error), waiters: [])
        case .unresolved: .resolve
        case .unsized(let thumbnail):
            readsDiskInsteadOfDownloading(thumbnail.fullSize, thumbnail, memory: &memory) ?? .measure(thumbnail)
        case .missing(let source):
            readsDiskInsteadOfDownloading(source, nil, memory: &memory)
                ?? join(source, for: request, memory: &memory)
        }
    }

    /// The runner resolved `request` on the file system.
    mutating func resolved(
        _ request: ImageRequest, as resolution: Result<ImageLocator, ImageStoreError>, by runner: LoadRunner,
        memory: inout MemoryState, released: inout [CachedImage]
    ) -> LoadStep {
        memory.resolutions.remember(resolution, for: request.source)
        switch resolution {
        case .failure(let error):
            return .finished(.failure(error), waiters: end(by: runner, memory: &memory))
        case .success(let fullSize):
            // Async lookups of the same request queued unresolved join this runner's work.
            guard let maxPixelSize = request.maxPixelSize else {
                return proceed(
                    with: fullSize, replacing: .request(request), by: runner, memory: &memory, released: &released)
            }
            let thumbnail = UnsizedThumbnail(of: fullSize, maxPixelSize: maxPixelSize)
            guard let source = memory.sourceIfSizeKnown(thumbnail) else {
                guard case .loadingThread(let load) = runner else { return .measure(thumbnail) }
                return inFlight.retarget(load, to: .unsized(thumbnail)) == load ? .measure(thumbnail) : .merged
            }
            return proceed(with: source, replacing: .request(request), by: runner, memory: &memory, released: &released)
        }
    }

    /// The runner read the pixel size from the thumbnail's bytes (nil: the decoder cannot tell).
    mutating func measured(
        _ thumbnail: UnsizedThumbnail, size: PixelSize?, by runner: LoadRunner, memory: inout MemoryState,
        released: inout [CachedImage]
    ) -> LoadStep {
        let source = memory.measured(thumbnail, size: size)
        return proceed(with: source, replacing: .unsized(thumbnail), by: runner, memory: &memory, released: &released)
    }

    /// The runner could not fetch the bytes it needed before decoding (to measure them).
    ///
    /// - Returns: The waiters owed the error.
    mutating func failed(_ error: ImageStoreError, by runner: LoadRunner, memory: inout MemoryState) -> [LoadWaiter] {
        switch runner {
        case .caller(let request):
            memory.forgetResolutions(after: error, of: [request])
        case .loadingThread(let load):
            memory.forgetResolutions(after: error, of: inFlight.operations[load]?.job.requests ?? [])
        }
        return end(by: runner, memory: &memory)
    }

    /// How a finished load's decoder ended, when it ran.
    enum DecoderOutcome {
        /// The file was whole, or the decoder failed.
        case intact
        /// The decoder showed a damaged file, as well as it could.
        case damaged
    }

    /// A load ended: its image is stored (a failure is not; a file that vanished or changed also
    /// makes the resolutions that led to it stale) and its entry ends.
    ///
    /// - Parameters:
    ///   - decoded: Whether the decoder ran, and how it ended; nil if it did not.
    ///   - reservedCost: The live-cost reservation of its decode, now released.
    /// - Returns: The waiters owed the result.
    mutating func finished(
        _ load: LoadID?, of key: ImageKey, for request: ImageRequest?,
        result: Result<CachedImage, ImageStoreError>, decoded: DecoderOutcome?, reservedCost: Int,
        memory: inout MemoryState, released: inout [CachedImage]
    ) -> [LoadWaiter] {
        if let decoded {
            memory.counters.decodes += 1
            if decoded == .damaged { memory.counters.damagedDecodes += 1 }
        }
        // The image, if any, now counts as live itself.
        memory.decodingCost -= reservedCost
        let operation = load.flatMap { inFlight.finish($0) }
        switch result {
        case .success(let image):
            let before = released.count
            memory.storeLoaded(image, for: key, released: &released)
            memory.counters.evictions += released.count - before
        case .failure(let error):
            memory.forgetResolutions(after: error, of: (operation?.job.requests ?? []) + (request.map { [$0] } ?? []))
        }
        return operation?.waiters ?? []
    }

    /// A loading thread stopped a load part-way because its last waiter left: it ends, or is
    /// queued again for the waiters that joined after it stopped (the thread takes it next).
    ///
    /// - Parameters:
    ///   - decoded: Whether the decoder ran (and stopped), as opposed to stopping before it.
    ///   - reservedCost: The live-cost reservation of its decode, now released.
    mutating func stopped(_ load: LoadID, decoded: Bool, reservedCost: Int, memory: inout MemoryState) {
        if decoded { memory.counters.decodes += 1 }
        memory.decodingCost -= reservedCost
        memory.counters.loadsStoppedWhileRunning += 1
        if inFlight.operations[load]?.waiters.isEmpty ?? true {
            _ = inFlight.finish(load)
        } else {
            inFlight.restart(load)
        }
    }

    // MARK: Internals

    /// Ends the runner's lookup or load without an image.
    ///
    /// - Returns: The waiters owed the outcome.
    private mutating func end(by runner: LoadRunner, memory: inout MemoryState) -> [LoadWaiter] {
        switch runner {
        case .caller:
            memory.count(.miss)
            return []
        case .loadingThread(let load):
            return inFlight.finish(load)?.waiters ?? []
        }
    }

    /// Ends a synchronous lookup of a network image that memory does not hold, or sends it to
    /// the disk cache: a synchronous lookup never waits on the network, nor joins a download.
    private func readsDiskInsteadOfDownloading(
        _ source: ImageLocator, _ thumbnail: UnsizedThumbnail?, memory: inout MemoryState
    ) -> LoadStep? {
        guard let url = source.bytes.download else { return nil }
        memory.count(.miss)
        guard readsDownloadsFromDisk else { return .finished(.failure(.notInMemoryOrOnDisk(url.url)), waiters: []) }
        return .readDisk(source, thumbnail)
    }

    /// Goes on with `source` once the runner knows it: memory may hold its image by now (another
    /// spelling of the name brought it in), another load of it may be in flight; else the runner
    /// decodes it. A queued load of `target`, the same image under a less precise target, joins
    /// the runner's load.
    private mutating func proceed(
        with source: ImageLocator, replacing target: LoadOperation.Target, by runner: LoadRunner,
        memory: inout MemoryState, released: inout [CachedImage]
    ) -> LoadStep {
        switch runner {
        case .caller(let request):
            if let image = memory.countedImage(for: source.key, released: &released) {
                return .finished(.success(image), waiters: [])
            }
            if let queued = inFlight.load(of: target), inFlight.isQueued(queued) {
                _ = inFlight.retarget(queued, to: .image(source))
            }
            return join(source, for: request, memory: &memory)
        case .loadingThread(let load):
            if let image = memory.image(for: source.key, released: &released) {
                return .finished(.success(image), waiters: inFlight.finish(load)?.waiters ?? [])
            }
            return inFlight.retarget(load, to: .image(source)) == load ? .decode(source, load) : .merged
        }
    }

    /// A synchronous caller never waits behind queued work: it takes a queued load over and runs
    /// it itself, and waits only for a load already running.
    private mutating func join(_ source: ImageLocator, for request: ImageRequest, memory: inout MemoryState) -> LoadStep
    {
        guard memory.storage.sharesImages else {
            memory.count(.miss)
            return .decode(source, nil)
        }
        guard let load = inFlight.load(of: .image(source)) else {
            memory.count(.miss)
            return .decode(source, inFlight.create(.image(source), request: request, shared: true, running: true))
        }
        memory.count(.coalesced)
        if inFlight.isQueued(load) {
            inFlight.start(load)
            memory.counters.loadsTakenOver += 1
            return .decode(source, load)
        }
        let latch = LoadLatch()
        inFlight.add(
            LoadWaiter(id: newWaiterID(), priority: .veryHigh, delivery: .sync(latch)), request: request, to: load)
        return .wait(latch)
    }

    /// A fresh waiter id.
    mutating func newWaiterID() -> WaiterID {
        lastWaiterID += 1
        return lastWaiterID
    }

    /// Counts a loading thread started for `register` or `downloaded` of work at `priority`: a
    /// regular one if one is free, else the visible lane for work on screen.
    mutating func startsLoadingThread(for priority: ImageLoadPriority?) -> LoadingThread? {
        guard loadingThreads < maximumConcurrentLoads else { return startsVisibleLane(for: priority) }
        loadingThreads += 1
        return .regular
    }

    /// Counts the visible lane started for work at `priority`, if that is work on screen and the
    /// lane is free.
    mutating func startsVisibleLane(for priority: ImageLoadPriority?) -> LoadingThread? {
        // Work on screen behind other work on screen waits its turn: in a fling, most of it is
        // for rows that leave before another decode would end.
        guard let priority, priority >= LoadingThread.visiblePriority, !visibleLaneRuns,
            let (load, cancellation) = backgroundLoads.first
        else { return nil }
        visibleLaneRuns = true
        // The lane takes the paused load's processor, not one more: a third decode on two cores
        // would slow every decode down.
        pausedLoad = load
        cancellation.pause()
        return .visibleLane
    }

    /// Lets the paused background load go on: the lane ended, or the load became work on screen.
    mutating func resumePausedLoad() {
        guard let load = pausedLoad else { return }
        backgroundLoads[load]?.resume()
        pausedLoad = nil
    }

    /// A regular thread took `load`, background work that the visible lane may pause.
    mutating func runsInBackground(_ load: LoadID, cancellation: DecodeCancellation) {
        backgroundLoads[load] = cancellation
    }

    /// A regular thread ended the background load `load`.
    mutating func backgroundLoadEnded(_ load: LoadID) {
        backgroundLoads[load] = nil
        if pausedLoad == load { pausedLoad = nil }
    }

    /// The queued loads the thread may run ran out: it ends.
    mutating func loadingThreadEnded(_ thread: LoadingThread) {
        switch thread {
        case .regular: loadingThreads -= 1
        case .visibleLane:
            visibleLaneRuns = false
            resumePausedLoad()
        }
    }

    /// Records a waiter between its miss and its registration.
    mutating func awaitRegistration(of id: WaiterID) {
        unregisteredWaiters.insert(id)
    }

    /// Whether the waiter was cancelled between its miss and its registration.
    mutating func registrationWasCancelled(_ id: WaiterID) -> Bool {
        unregisteredWaiters.remove(id)
        return cancelledBeforeRegistration.remove(id) != nil
    }

    /// Keeps the cancellation of a waiter that has not registered yet, for its registration.
    mutating func cancelBeforeRegistration(_ id: WaiterID) -> Bool {
        guard unregisteredWaiters.remove(id) != nil else { return false }
        cancelledBeforeRegistration.insert(id)
        return true
    }
}

import Foundation

/// The events of waiters — async lookups and prefetches registering and cancelling — and of the
/// loading threads and downloads that serve them.
extension LoadStateMachine {
    /// The first step of an asynchronous lookup.
    enum AsyncStart {
        case found(CachedImage)
        case failed(ImageStoreError)
        /// Not in memory: register a waiter with this id.
        case miss(WaiterID)
    }

    /// What became of a waiter handed to ``register(_:for:memory:released:)``.
    enum Registration {
        /// It needs no load: deliver this result to it now.
        case finished(Result<CachedImage, ImageStoreError>)
        /// It waits for a load; start this loading thread, if any.
        case waiting(startLoadingThread: LoadingThread?)
    }

    /// An asynchronous lookup begins: memory only.
    mutating func startAsyncLookup(
        _ request: ImageRequest, memory: inout MemoryState, released: inout [CachedImage]
    ) -> AsyncStart {
        switch memory.lookUp(request, released: &released) {
        case .found(let image):
            return .found(image)
        case .failed(let error):
            return .failed(error)
        case .unresolved, .missing, .unsized:
            let id = newWaiterID()
            awaitRegistration(of: id)
            return .miss(id)
        }
    }

    /// A waiter asks for `request`: it joins the load in progress or a new queued one; or it is
    /// finished at once if memory answers (the image arrived meanwhile, the resolution is a
    /// remembered failure, or the waiter was cancelled before it got here).
    mutating func register(
        _ waiter: LoadWaiter, for request: ImageRequest, memory: inout MemoryState, released: inout [CachedImage]
    ) -> Registration {
        if registrationWasCancelled(waiter.id) {
            memory.count(.miss)
            memory.counters.waitersCancelled += 1
            return .finished(.failure(.cancelled))
        }
        let target: LoadOperation.Target
        switch memory.lookUp(request, released: &released) {
        case .found(let image): return .finished(.success(image))
        case .failed(let error): return .finished(.failure(error))
        case .unresolved: target = .request(request)
        case .unsized(let thumbnail): target = .unsized(thumbnail)
        case .missing(let source): target = .image(source)
        }
        if memory.storage.sharesImages, let load = inFlight.load(of: target) {
            memory.count(.coalesced)
            inFlight.add(waiter, request: request, to: load)
            let isOnScreen = waiter.priority >= LoadingThread.visiblePriority
            // A cell joining the paused prefetch of its image needs it now.
            if isOnScreen && load == pausedLoad { resumePausedLoad() }
            // A cell joining a queued prefetch of its image must not wait behind other prefetches.
            return .waiting(startLoadingThread: inFlight.isQueued(load) ? startsVisibleLane(for: waiter.priority) : nil)
        }
        memory.count(.miss)
        memory.counters.loadsScheduled += 1
        let load = inFlight.create(target, request: request, shared: memory.storage.sharesImages, running: false)
        inFlight.add(waiter, request: request, to: load)
        return .waiting(startLoadingThread: startsLoadingThread(for: waiter.priority))
    }

    /// A waiter leaves: its load is dropped if it was queued (or downloading) and nobody else
    /// waits; the download changes this makes wait in ``InFlightLoads/downloadChanges``.
    ///
    /// - Returns: The waiter, owed `.cancelled`; nil if it already has its result, or has not
    ///   registered yet (then its registration finds it cancelled).
    mutating func cancel(waiter id: WaiterID, memory: inout MemoryState) -> LoadWaiter? {
        if cancelBeforeRegistration(id) { return nil }
        let downloading = inFlight.isDownloading(waiter: id)
        guard let (waiter, droppedLoad) = inFlight.remove(waiter: id) else { return nil }
        memory.counters.waitersCancelled += 1
        if droppedLoad {
            // A load waiting for its download had started: its download stops at the socket.
            if downloading {
                memory.counters.loadsStoppedWhileRunning += 1
            } else {
                memory.counters.loadsCancelledBeforeStart += 1
            }
        }
        return waiter
    }

    /// A loading thread asks for work: the next queued load, or nil when the queue is empty (the
    /// thread then ends).
    ///
    /// - Parameter finishedBackgroundWork: The thread's last load, if it was background work.
    mutating func nextQueuedLoad(for thread: LoadingThread, finishedBackgroundWork: LoadID? = nil) -> QueuedLoad? {
        if let finishedBackgroundWork { backgroundLoadEnded(finishedBackgroundWork) }
        let minimum = thread == .visibleLane ? LoadingThread.visiblePriority : .veryLow
        guard let (load, target, cancellation, data) = inFlight.startNextQueued(atLeast: minimum) else {
            loadingThreadEnded(thread)
            return nil
        }
        let isBackground =
            thread == .regular && (inFlight.priority(of: load) ?? .veryLow) < LoadingThread.visiblePriority
        if isBackground { runsInBackground(load, cancellation: cancellation) }
        switch target {
        case .image(let source):
            return QueuedLoad(
                load: load, step: .decode(source, load), request: nil, cancellation: cancellation, data: data,
                isBackground: isBackground)
        case .request(let request):
            return QueuedLoad(
                load: load, step: .resolve, request: request, cancellation: cancellation, data: data,
                isBackground: isBackground)
        case .unsized(let thumbnail):
            return QueuedLoad(
                load: load, step: .measure(thumbnail), request: nil, cancellation: cancellation, data: data,
                isBackground: isBackground)
        }
    }

    // MARK: Downloads

    /// A loading thread hands `load` to the downloader and goes on with other work.
    ///
    /// - Returns: The priority to download at; nil if nobody waits for the load any more (it
    ///   ends here rather than wait for bytes nobody wants).
    mutating func awaitsDownload(_ load: LoadID, memory: inout MemoryState) -> ImageLoadPriority? {
        if let priority = inFlight.awaitDownload(load) { return priority }
        if inFlight.operations[load] != nil { stopped(load, decoded: false, reservedCost: 0, memory: &memory) }
        return nil
    }

    /// The downloader gave `load`'s download a ticket.
    ///
    /// - Returns: false if the download is no longer wanted (the caller cancels it).
    mutating func downloadStarted(_ ticket: DownloadTicket, for load: LoadID) -> Bool {
        inFlight.recordDownloadTicket(ticket, for: load)
    }

    /// `load`'s bytes arrived: it is queued for decoding.
    ///
    /// - Returns: The loading thread to start, if any.
    mutating func downloaded(_ data: Data, for load: LoadID) -> LoadingThread? {
        inFlight.downloaded(data, for: load) ? startsLoadingThread(for: inFlight.priority(of: load)) : nil
    }

    /// `load`'s download failed.
    ///
    /// - Returns: The waiters owed the error.
    mutating func downloadFailed(for load: LoadID) -> [LoadWaiter] {
        guard let operation = inFlight.operations[load], operation.job.isDownloading else { return [] }
        return inFlight.finish(load)?.waiters ?? []
    }

    /// The download changes made under the lock since the last call, to carry out after it.
    mutating func takeDownloadChanges() -> [InFlightLoads.DownloadChange] {
        defer { inFlight.downloadChanges.removeAll() }
        return inFlight.downloadChanges
    }

    /// The store was emptied: every queued load and every download is cancelled (their changes
    /// wait in ``InFlightLoads/downloadChanges``); loads a thread runs go on.
    ///
    /// - Returns: The waiters of the cancelled loads, owed `.cancelled`.
    mutating func removeAll(memory: inout MemoryState) -> [LoadWaiter] {
        let cancelled = inFlight.removeQueuedAndDownloading()
        memory.counters.loadsCancelledBeforeStart += cancelled.count
        let waiters = cancelled.flatMap(\.waiters)
        memory.counters.waitersCancelled += waiters.count
        return waiters
    }
}

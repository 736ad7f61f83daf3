import Foundation

/// The loads in progress, one per image, their waiters and the queue of those not started yet.
///
/// A second miss for the same image (or the same unresolved request) joins the first load instead
/// of starting another. Queued loads are ordered by the highest priority among their waiters; a
/// load is dropped from the queue when its last waiter leaves, and a load a loading thread runs
/// is asked to stop (see ``DecodeCancellation``). A load waiting for a download holds no loading
/// thread; when its last waiter leaves its download is cancelled, and when its waiters' priority
/// changes so does the download's: the changes wait in ``downloadChanges`` for the engine to pass
/// on to the downloader after unlocking.
struct InFlightLoads: Sendable {
    /// What the downloader must hear about a load's download.
    enum DownloadChange: Sendable {
        case cancel(DownloadTicket)
        case reprioritize(DownloadTicket, ImageLoadPriority)
    }

    private(set) var operations: [LoadID: LoadOperation] = [:]
    private var byTarget: [LoadOperation.Target: LoadID] = [:]
    private var loadOfWaiter: [WaiterID: LoadID] = [:]
    private var queue = LoadQueue()
    private var nextLoadID = 0
    /// Download changes made under the lock, for the engine to take and carry out after it.
    var downloadChanges: [DownloadChange] = []

    /// The shared load of `target`, if one is in progress.
    func load(of target: LoadOperation.Target) -> LoadID? {
        byTarget[target]
    }

    /// Whether the load `id` waits for is waiting for its download.
    func isDownloading(waiter id: WaiterID) -> Bool {
        loadOfWaiter[id].flatMap { operations[$0] }?.isDownloading ?? false
    }

    /// Whether `load` is queued rather than running.
    func isQueued(_ load: LoadID) -> Bool {
        operations[load].map { !$0.isRunning } ?? false
    }

    /// Starts tracking a new load, queued or already running on the caller's thread.
    mutating func create(
        _ target: LoadOperation.Target, request: ImageRequest, shared: Bool, running: Bool
    ) -> LoadID {
        nextLoadID += 1
        let id = nextLoadID
        operations[id] = LoadOperation(target: target, requests: [request], isRunning: running, isShared: shared)
        if shared { byTarget[target] = id }
        return id
    }

    /// Adds a waiter to `load`, moving the load up the queue if the waiter outranks the others.
    mutating func add(_ waiter: LoadWaiter, request: ImageRequest, to load: LoadID) {
        guard var operation = operations[load] else { return }
        let before = operation.priority
        operation.waiters.append(waiter)
        if !operation.requests.contains(request) { operation.requests.append(request) }
        operations[load] = operation
        loadOfWaiter[waiter.id] = load
        operation.cancellation?.withdrawStopRequest()
        if before != operation.priority { priorityChanged(load) }
    }

    /// Removes a waiter. A queued load left without waiters is dropped; a running one is asked
    /// to stop.
    ///
    /// - Returns: The waiter, or nil if it is not waiting; and whether its load was dropped.
    mutating func remove(waiter id: WaiterID) -> (waiter: LoadWaiter, droppedLoad: Bool)? {
        guard let load = loadOfWaiter.removeValue(forKey: id), var operation = operations[load],
            let index = operation.waiters.firstIndex(where: { $0.id == id })
        else { return nil }
        let before = operation.priority
        let waiter = operation.waiters.remove(at: index)
        operations[load] = operation
        if operation.waiters.isEmpty {
            if operation.isDownloading {
                if let ticket = operation.downloadTicket { downloadChanges.append(.cancel(ticket)) }
                end(load)
                return (waiter, true)
            }
            guard operation.isRunning else {
                end(load)
                return (waiter, true)
            }
            operation.cancellation?.requestStop()
        }
        if before != operation.priority { priorityChanged(load) }
        return (waiter, false)
    }

    /// Marks a queued load as running on the caller's thread.
    mutating func start(_ load: LoadID) {
        operations[load]?.isRunning = true
    }

    /// Takes the queued load a loading thread should run next and marks it running.
    ///
    /// - Returns: The load, its target, the cancellation the thread must poll, and its bytes if
    ///   they were downloaded already.
    mutating func startNextQueued() -> (LoadID, LoadOperation.Target, DecodeCancellation, Data?)? {
        let operations = self.operations
        let next = queue.next { entry in
            operations[entry.load].map { !$0.isRunning && $0.queueTicket == entry.ticket } ?? false
        }
        guard let next, var operation = self.operations[next] else { return nil }
        let cancellation = DecodeCancellation()
        operation.isRunning = true
        operation.cancellation = cancellation
        var fetched: Data?
        if case .fetched(let data) = operation.bytes {
            fetched = data
            operation.bytes = .unfetched
        }
        self.operations[next] = operation
        return (next, operation.target, cancellation, fetched)
    }

    /// Marks a running load as waiting for its download, so its thread can go on to other work.
    ///
    /// - Returns: The priority to download at; nil if nobody waits for the load any more.
    mutating func awaitDownload(_ load: LoadID) -> ImageLoadPriority? {
        guard var operation = operations[load], let priority = operation.priority else { return nil }
        operation.bytes = .downloading(nil)
        operation.cancellation = nil
        operations[load] = operation
        return priority
    }

    /// Records the ticket of a load's download.
    ///
    /// - Returns: false if the load no longer waits for that download (its waiters left before
    ///   the ticket existed): the caller cancels the ticket.
    mutating func recordDownloadTicket(_ ticket: DownloadTicket, for load: LoadID) -> Bool {
        guard var operation = operations[load], case .downloading(nil) = operation.bytes else {
            return operations[load] != nil
        }
        operation.bytes = .downloading(ticket)
        operations[load] = operation
        // A waiter may have joined or left between asking for the download and now.
        if let priority = operation.priority { downloadChanges.append(.reprioritize(ticket, priority)) }
        return true
    }

    /// Queues a load whose bytes arrived, for a loading thread to decode.
    ///
    /// - Returns: Whether the load is still wanted (and now queued).
    mutating func downloaded(_ data: Data, for load: LoadID) -> Bool {
        guard var operation = operations[load], operation.isDownloading else { return false }
        operation.bytes = .fetched(data)
        operation.isRunning = false
        operation.queueTicket = 0
        operations[load] = operation
        requeue(load)
        return true
    }

    /// Queues a load that stopped part-way again, because a waiter joined it after it stopped.
    mutating func restart(_ load: LoadID) {
        guard var operation = operations[load] else { return }
        operation.isRunning = false
        operation.cancellation = nil
        operation.queueTicket = 0
        operations[load] = operation
        requeue(load)
    }

    /// Points a load at a more precise target once its request is resolved or its image's size
    /// known, or merges it into the load of that target if there already is one.
    ///
    /// - Returns: The load that now owns the waiters.
    mutating func retarget(_ load: LoadID, to target: LoadOperation.Target) -> LoadID {
        guard var operation = operations[load] else { return load }
        guard operation.isShared else {
            operation.target = target
            operations[load] = operation
            return load
        }
        if byTarget[operation.target] == load { byTarget[operation.target] = nil }
        if let existing = byTarget[target], existing != load, var owner = operations[existing] {
            let before = owner.priority
            owner.waiters += operation.waiters
            owner.requests += operation.requests.filter { !owner.requests.contains($0) }
            operations[existing] = owner
            for waiter in operation.waiters { loadOfWaiter[waiter.id] = existing }
            if !operation.waiters.isEmpty { owner.cancellation?.withdrawStopRequest() }
            operations[load] = nil
            if before != owner.priority { priorityChanged(existing) }
            return existing
        }
        operation.target = target
        operations[load] = operation
        byTarget[target] = load
        return load
    }

    /// Ends a load and returns it with its waiters, who are owed its result.
    mutating func finish(_ load: LoadID) -> LoadOperation? {
        guard let operation = operations[load] else { return nil }
        end(load)
        return operation
    }

    /// Ends every queued load and every load waiting for a download (cancelling the download)
    /// and returns them; loads a thread runs go on.
    mutating func removeQueuedAndDownloading() -> [LoadOperation] {
        let removed = operations.filter { !$0.value.isRunning || $0.value.isDownloading }
        for (load, operation) in removed {
            if let ticket = operation.downloadTicket { downloadChanges.append(.cancel(ticket)) }
            end(load)
        }
        queue.removeAll()
        return Array(removed.values)
    }

    private mutating func end(_ load: LoadID) {
        guard let operation = operations.removeValue(forKey: load) else { return }
        if byTarget[operation.target] == load { byTarget[operation.target] = nil }
        for waiter in operation.waiters { loadOfWaiter[waiter.id] = nil }
    }

    /// Passes a load's new priority on: to its queue entry, or to its download.
    private mutating func priorityChanged(_ load: LoadID) {
        guard let operation = operations[load] else { return }
        if let ticket = operation.downloadTicket, let priority = operation.priority {
            downloadChanges.append(.reprioritize(ticket, priority))
        } else {
            requeue(load)
        }
    }

    /// Queues `load` again under its current priority, if it is queued and the priority changed.
    mutating func requeue(_ load: LoadID) {
        guard var operation = operations[load], !operation.isRunning, let priority = operation.priority else { return }
        guard operation.queueTicket == 0 || priority != operation.queuedPriority else { return }
        operation.queueTicket = queue.enqueue(load, at: priority)
        operation.queuedPriority = priority
        operations[load] = operation
    }
}

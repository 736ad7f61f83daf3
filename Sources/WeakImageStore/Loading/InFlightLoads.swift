import Foundation

/// The loads in progress, one per image, their waiters and the queue of those not started yet:
/// a ``CoalescingWorkQueue`` of ``LoadOperation``s, and what loads add to it.
///
/// A load nobody waits for any more is dropped while queued, asked to stop while a loading
/// thread runs it (see ``DecodeCancellation``), and its download cancelled while it waits for
/// one; a load waiting for a download holds no loading thread, and its waiters' priority passes
/// on to the download. Download changes wait in ``downloadChanges`` for the engine to pass on to
/// the downloader after unlocking.
struct InFlightLoads: Sendable {
    typealias Loads = CoalescingWorkQueue<LoadOperation.Target, LoadOperation, LoadWaiter>

    /// What the downloader must hear about a load's download.
    enum DownloadChange: Sendable {
        case cancel(DownloadTicket)
        case reprioritize(DownloadTicket, ImageLoadPriority)
    }

    private var loads = Loads()
    /// Download changes made under the lock, for the engine to take and carry out after it.
    var downloadChanges: [DownloadChange] = []

    /// Every load in progress.
    var operations: [LoadID: Loads.Entry] { loads.entries }

    /// The shared load of `target`, if one is in progress.
    func load(of target: LoadOperation.Target) -> LoadID? {
        loads.job(producing: target)
    }

    /// Whether the load `id` waits for is waiting for its download.
    func isDownloading(waiter id: WaiterID) -> Bool {
        loads.job(ofWaiter: id).flatMap { loads[$0] }?.job.isDownloading ?? false
    }

    /// The priority of `load`: the highest of its waiters'; nil if nobody waits.
    func priority(of load: LoadID) -> ImageLoadPriority? {
        loads[load]?.priority
    }

    /// Whether `load` is queued rather than running.
    func isQueued(_ load: LoadID) -> Bool {
        loads[load]?.isQueued ?? false
    }

    /// Starts tracking a new load, queued or already running on the caller's thread.
    mutating func create(
        _ target: LoadOperation.Target, request: ImageRequest, shared: Bool, running: Bool
    ) -> LoadID {
        loads.create(target, job: LoadOperation(requests: [request]), coalesces: shared, queued: !running)
    }

    /// Adds a waiter to `load`, moving the load up the queue if the waiter outranks the others.
    mutating func add(_ waiter: LoadWaiter, request: ImageRequest, to load: LoadID) {
        loads.updateJob(load) { operation in
            if !operation.requests.contains(request) { operation.requests.append(request) }
            operation.cancellation?.withdrawStopRequest()
        }
        if loads.add(waiter, to: load) { reprioritizeDownload(of: load) }
    }

    /// Removes a waiter. A queued or downloading load left without waiters is dropped; a running
    /// one is asked to stop.
    ///
    /// - Returns: The waiter, or nil if it is not waiting; and whether its load was dropped.
    mutating func remove(waiter id: WaiterID) -> (waiter: LoadWaiter, droppedLoad: Bool)? {
        guard let (waiter, load, priorityChanged) = loads.remove(waiter: id), let entry = loads[load] else {
            return nil
        }
        guard entry.waiters.isEmpty else {
            if priorityChanged { reprioritizeDownload(of: load) }
            return (waiter, false)
        }
        if entry.job.isDownloading {
            if let ticket = entry.job.downloadTicket { downloadChanges.append(.cancel(ticket)) }
            loads.end(load)
            return (waiter, true)
        }
        guard !entry.isQueued else {
            loads.end(load)
            return (waiter, true)
        }
        entry.job.cancellation?.requestStop()
        return (waiter, false)
    }

    /// Marks a queued load as running on the caller's thread.
    mutating func start(_ load: LoadID) {
        loads.take(load)
    }

    /// Takes the queued load a loading thread should run next and marks it running.
    ///
    /// - Returns: The load, its target, the cancellation the thread must poll, and its bytes if
    ///   they were downloaded already.
    mutating func startNextQueued(
        atLeast minimum: ImageLoadPriority = .veryLow
    ) -> (LoadID, LoadOperation.Target, DecodeCancellation, Data?)? {
        guard let next = loads.takeNext(atLeast: minimum) else { return nil }
        let cancellation = DecodeCancellation()
        let fetched = loads.updateJob(next) { operation -> Data? in
            operation.cancellation = cancellation
            guard case .fetched(let data) = operation.bytes else { return nil }
            operation.bytes = .unfetched
            return data
        }
        guard let entry = loads[next] else { return nil }
        return (next, entry.key, cancellation, fetched ?? nil)
    }

    /// Marks a running load as waiting for its download, so its thread can go on to other work.
    ///
    /// - Returns: The priority to download at; nil if nobody waits for the load any more.
    mutating func awaitDownload(_ load: LoadID) -> ImageLoadPriority? {
        guard let priority = loads[load]?.priority else { return nil }
        loads.updateJob(load) { operation in
            operation.bytes = .downloading(nil)
            operation.cancellation = nil
        }
        return priority
    }

    /// Records the ticket of a load's download.
    ///
    /// - Returns: false if the load no longer waits for that download (its waiters left before
    ///   the ticket existed): the caller cancels the ticket.
    mutating func recordDownloadTicket(_ ticket: DownloadTicket, for load: LoadID) -> Bool {
        guard let entry = loads[load] else { return false }
        guard case .downloading(nil) = entry.job.bytes else { return true }
        loads.updateJob(load) { $0.bytes = .downloading(ticket) }
        // A waiter may have joined or left between asking for the download and now.
        if let priority = entry.priority { downloadChanges.append(.reprioritize(ticket, priority)) }
        return true
    }

    /// Queues a load whose bytes arrived, for a loading thread to decode.
    ///
    /// - Returns: Whether the load is still wanted (and now queued).
    mutating func downloaded(_ data: Data, for load: LoadID) -> Bool {
        guard loads[load]?.job.isDownloading == true else { return false }
        loads.updateJob(load) { $0.bytes = .fetched(data) }
        loads.requeue(load)
        return true
    }

    /// Queues a load that stopped part-way again, because a waiter joined it after it stopped.
    mutating func restart(_ load: LoadID) {
        loads.updateJob(load) { $0.cancellation = nil }
        loads.requeue(load)
    }

    /// Points a load at a more precise target once its request is resolved or its image's size
    /// known, or merges it into the load of that target if there already is one.
    ///
    /// - Returns: The load that now owns the waiters.
    mutating func retarget(_ load: LoadID, to target: LoadOperation.Target) -> LoadID {
        let waiters = loads[load]?.waiters.isEmpty == false
        let (owner, priorityChanged) = loads.rekey(load, to: target) { owner, merged in
            owner.requests += merged.requests.filter { !owner.requests.contains($0) }
            if waiters { owner.cancellation?.withdrawStopRequest() }
        }
        if priorityChanged { reprioritizeDownload(of: owner) }
        return owner
    }

    /// Ends a load and returns it with its waiters, who are owed its result.
    mutating func finish(_ load: LoadID) -> Loads.Entry? {
        loads.end(load)
    }

    /// Ends every queued load and every load waiting for a download (cancelling the download)
    /// and returns them; loads a thread runs go on.
    mutating func removeQueuedAndDownloading() -> [Loads.Entry] {
        let removed = loads.removeAll { $0.isQueued || $0.job.isDownloading }
        for entry in removed.values {
            if let ticket = entry.job.downloadTicket { downloadChanges.append(.cancel(ticket)) }
        }
        return Array(removed.values)
    }

    /// Passes a load's new priority on to its download, if it has one (the queue moved a queued
    /// load itself).
    private mutating func reprioritizeDownload(of load: LoadID) {
        guard let entry = loads[load], let ticket = entry.job.downloadTicket, let priority = entry.priority else {
            return
        }
        downloadChanges.append(.reprioritize(ticket, priority))
    }
}

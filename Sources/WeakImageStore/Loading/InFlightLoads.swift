/// The loads in progress, one per image, their waiters and the queue of those not started yet.
///
/// A second miss for the same image (or the same unresolved request) joins the first load instead
/// of starting another. Queued loads are ordered by the highest priority among their waiters; a
/// load is dropped from the queue when its last waiter leaves, and a load a loading thread runs
/// is asked to stop (see ``DecodeCancellation``).
struct InFlightLoads: Sendable {
    private(set) var operations: [LoadID: LoadOperation] = [:]
    private var byTarget: [LoadOperation.Target: LoadID] = [:]
    private var loadOfWaiter: [WaiterID: LoadID] = [:]
    private var queue = LoadQueue()
    private var nextLoadID = 0

    /// The shared load of `target`, if one is in progress.
    func load(of target: LoadOperation.Target) -> LoadID? {
        byTarget[target]
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
        if before != operation.priority { requeue(load) }
    }

    /// Removes a waiter. A queued load left without waiters is dropped; a running one is asked
    /// to stop.
    ///
    /// - Returns: The waiter, or nil if it is not waiting; and whether its load was dropped.
    mutating func remove(waiter id: WaiterID) -> (waiter: LoadWaiter, droppedLoad: Bool)? {
        guard let load = loadOfWaiter.removeValue(forKey: id), var operation = operations[load],
            let index = operation.waiters.firstIndex(where: { $0.id == id })
        else { return nil }
        let waiter = operation.waiters.remove(at: index)
        operations[load] = operation
        if operation.waiters.isEmpty {
            guard operation.isRunning else {
                end(load)
                return (waiter, true)
            }
            operation.cancellation?.requestStop()
        }
        requeue(load)
        return (waiter, false)
    }

    /// Marks a queued load as running on the caller's thread.
    mutating func start(_ load: LoadID) {
        operations[load]?.isRunning = true
    }

    /// Takes the queued load a loading thread should run next and marks it running.
    ///
    /// - Returns: The load, its target, and the cancellation the thread must poll.
    mutating func startNextQueued() -> (LoadID, LoadOperation.Target, DecodeCancellation)? {
        let operations = self.operations
        let next = queue.next { entry in
            operations[entry.load].map { !$0.isRunning && $0.queueTicket == entry.ticket } ?? false
        }
        guard let next, var operation = self.operations[next] else { return nil }
        let cancellation = DecodeCancellation()
        operation.isRunning = true
        operation.cancellation = cancellation
        self.operations[next] = operation
        return (next, operation.target, cancellation)
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
            if before != owner.priority { requeue(existing) }
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

    /// Ends every queued load and returns them; running loads go on.
    mutating func removeQueued() -> [LoadOperation] {
        let queued = operations.filter { !$0.value.isRunning }
        for load in queued.keys { end(load) }
        queue.removeAll()
        return Array(queued.values)
    }

    private mutating func end(_ load: LoadID) {
        guard let operation = operations.removeValue(forKey: load) else { return }
        if byTarget[operation.target] == load { byTarget[operation.target] = nil }
        for waiter in operation.waiters { loadOfWaiter[waiter.id] = nil }
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

/// Jobs coalesced by what they produce, everybody waiting for each, and the order the queued
/// ones start in: the one abstraction under both the store's loads (``InFlightLoads``) and the
/// downloader's transfers (``DownloadSchedule``).
///
/// - A second request for the same `Key` joins the job in progress (unless the job was made
///   not to coalesce) instead of making another.
/// - A job's priority is the highest among its waiters; queued jobs start highest priority
///   first and, within a priority, newest first (see ``PriorityStacks`` for why).
/// - When a job's priority changes it is queued again under the new one at once; the entry it
///   leaves behind is stale and skipped when reached, so a change costs O(1).
///
/// It only keeps the books: what runs a job, and what happens when the last waiter leaves, is
/// the owner's, told by the return values.
struct CoalescingWorkQueue<Key: Hashable & Sendable, Job: Sendable, Waiter: PrioritizedWaiter>: Sendable {
    /// Identifies a job while it is in the queue's books.
    typealias JobID = Int

    /// One job and its waiters.
    struct Entry: Sendable {
        /// What the job produces.
        fileprivate(set) var key: Key
        var job: Job
        fileprivate(set) var waiters: [Waiter] = []
        /// Whether it waits for a slot; false once taken (running, or waiting elsewhere).
        fileprivate(set) var isQueued: Bool
        /// Whether other requests for the same key may join it.
        let coalesces: Bool
        fileprivate var queueTicket = 0
        fileprivate var queuedPriority: ImageLoadPriority?

        /// The highest priority among the waiters; a job nobody waits for has none.
        var priority: ImageLoadPriority? {
            waiters.lazy.map(\.priority).max()
        }
    }

    private(set) var entries: [JobID: Entry] = [:]
    private var jobOfKey: [Key: JobID] = [:]
    private var jobOfWaiter: [Waiter.ID: JobID] = [:]
    private var stacks = PriorityStacks()
    private var lastID = 0

    subscript(id: JobID) -> Entry? {
        entries[id]
    }

    /// The coalescing job producing `key`, if there is one.
    func job(producing key: Key) -> JobID? {
        jobOfKey[key]
    }

    /// The job `waiter` waits for.
    func job(ofWaiter waiter: Waiter.ID) -> JobID? {
        jobOfWaiter[waiter]
    }

    /// Whether `key`'s job is in the books (coalescing jobs only).
    func contains(_ key: Key) -> Bool {
        jobOfKey[key] != nil
    }

    /// Changes a job's own data.
    mutating func updateJob<Result>(_ id: JobID, _ body: (inout Job) -> Result) -> Result? {
        guard entries[id] != nil else { return nil }
        return body(&entries[id]!.job)
    }

    /// Starts a job, queued or already taken.
    mutating func create(_ key: Key, job: Job, coalesces: Bool, queued: Bool) -> JobID {
        lastID += 1
        entries[lastID] = Entry(key: key, job: job, isQueued: queued, coalesces: coalesces)
        if coalesces { jobOfKey[key] = lastID }
        return lastID
    }

    /// Adds a waiter to a job, moving a queued job up if the waiter outranks the others.
    ///
    /// - Returns: Whether the job's priority changed: a job that is not queued passes it on.
    @discardableResult
    mutating func add(_ waiter: Waiter, to id: JobID) -> Bool {
        guard var entry = entries[id] else { return false }
        let before = entry.priority
        entry.waiters.append(waiter)
        entries[id] = entry
        jobOfWaiter[waiter.id] = id
        return priorityChanged(id, from: before)
    }

    /// Takes a waiter off its job; a job left without waiters stays for its owner to end.
    ///
    /// - Returns: The waiter, its job, and whether the job's priority changed; nil if it waits
    ///   for nothing.
    mutating func remove(waiter id: Waiter.ID) -> (waiter: Waiter, job: JobID, priorityChanged: Bool)? {
        guard let job = jobOfWaiter.removeValue(forKey: id), var entry = entries[job],
            let index = entry.waiters.firstIndex(where: { $0.id == id })
        else { return nil }
        let before = entry.priority
        let waiter = entry.waiters.remove(at: index)
        entries[job] = entry
        return (waiter, job, !entry.waiters.isEmpty && priorityChanged(job, from: before))
    }

    /// Changes the priority a waiter waits at.
    ///
    /// - Returns: Whether its job's priority changed (a queued job moves at once).
    @discardableResult
    mutating func setPriority(_ priority: ImageLoadPriority, ofWaiter id: Waiter.ID) -> Bool {
        guard let job = jobOfWaiter[id], var entry = entries[job],
            let index = entry.waiters.firstIndex(where: { $0.id == id })
        else { return false }
        let before = entry.priority
        entry.waiters[index].priority = priority
        entries[job] = entry
        return priorityChanged(job, from: before)
    }

    /// Takes a queued job out of the queue: its owner runs it now.
    mutating func take(_ id: JobID) {
        entries[id]?.isQueued = false
    }

    /// Takes the queued job that comes first, or nil when none is queued at `minimum` or above.
    mutating func takeNext(atLeast minimum: ImageLoadPriority = .veryLow) -> JobID? {
        // A copy for the closure, released on return, before `entries` is written again.
        let entries = self.entries
        let next = stacks.next(atLeast: minimum) { id, ticket in
            entries[id].map { $0.isQueued && $0.queueTicket == ticket } ?? false
        }
        if let next { take(next) }
        return next
    }

    /// Queues a job that was taken again (its turn comes anew).
    mutating func requeue(_ id: JobID) {
        guard var entry = entries[id] else { return }
        entry.isQueued = true
        entry.queueTicket = 0
        entries[id] = entry
        enqueue(id)
    }

    /// Points a job at a more precise key (its request resolved, its size known), or merges it
    /// into the job already producing that key.
    ///
    /// - Parameter merge: Folds the merged job's data into the owner's.
    /// - Returns: The job that now owns the waiters, and whether its priority changed.
    mutating func rekey(
        _ id: JobID, to key: Key, merge: (inout Job, Job) -> Void
    ) -> (owner: JobID, priorityChanged: Bool) {
        guard var entry = entries[id] else { return (id, false) }
        guard entry.coalesces else {
            entry.key = key
            entries[id] = entry
            return (id, false)
        }
        if jobOfKey[entry.key] == id { jobOfKey[entry.key] = nil }
        if let existing = jobOfKey[key], existing != id, var owner = entries[existing] {
            let before = owner.priority
            owner.waiters += entry.waiters
            merge(&owner.job, entry.job)
            entries[existing] = owner
            for waiter in entry.waiters { jobOfWaiter[waiter.id] = existing }
            entries[id] = nil
            return (existing, priorityChanged(existing, from: before))
        }
        entry.key = key
        entries[id] = entry
        jobOfKey[key] = id
        return (id, false)
    }

    /// Ends a job and returns it, with its waiters.
    @discardableResult
    mutating func end(_ id: JobID) -> Entry? {
        guard let entry = entries.removeValue(forKey: id) else { return nil }
        if jobOfKey[entry.key] == id { jobOfKey[entry.key] = nil }
        for waiter in entry.waiters { jobOfWaiter[waiter.id] = nil }
        return entry
    }

    /// Ends every job `isRemoved` accepts and returns them.
    mutating func removeAll(where isRemoved: (Entry) -> Bool) -> [JobID: Entry] {
        let removed = entries.filter { isRemoved($0.value) }
        for id in removed.keys { end(id) }
        // What is left in the stacks then is stale.
        if !entries.values.contains(where: \.isQueued) { stacks.removeAll() }
        return removed
    }

    /// Traps if the books disagree; for tests.
    func _checkInvariants() {
        for (key, id) in jobOfKey {
            precondition(entries[id]?.key == key, "a key points at a job producing another")
        }
        precondition(jobOfWaiter.count == entries.values.reduce(0) { $0 + $1.waiters.count }, "waiter count")
        for (waiter, id) in jobOfWaiter {
            precondition(entries[id]?.waiters.contains { $0.id == waiter } == true, "a waiter is not its job's")
        }
    }

    /// Moves a queued job whose priority changed; says whether it changed.
    private mutating func priorityChanged(_ id: JobID, from before: ImageLoadPriority?) -> Bool {
        guard let entry = entries[id], entry.priority != before else { return false }
        if entry.isQueued { enqueue(id) }
        return true
    }

    /// Queues a queued job under its current priority, unless it is queued under it already.
    private mutating func enqueue(_ id: JobID) {
        guard var entry = entries[id], entry.isQueued, let priority = entry.priority,
            entry.queueTicket == 0 || priority != entry.queuedPriority
        else { return }
        entry.queueTicket = stacks.push(id, at: priority)
        entry.queuedPriority = priority
        entries[id] = entry
    }
}

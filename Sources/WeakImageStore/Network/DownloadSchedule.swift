import Foundation

/// The transfers in progress, one per URL identity, and the order the queued ones start in: a
/// ``CoalescingWorkQueue`` of ``Transfer``s (the same one the store's loads use), with at most
/// ``maximumConcurrentTransfers`` under way. URLSession on Linux ignores task priorities, so the
/// order is decided here.
///
/// A value the ``ImageDownloader`` keeps behind its lock. Mutating methods return what to do
/// next (tasks to start or cancel, completions owed), which the downloader does after unlocking.
struct DownloadSchedule: Sendable {
    /// A transfer given a slot: make its task and ``attach(_:to:)`` it.
    struct Start: Sendable {
        let transfer: TransferID
        let source: URLSource
        /// The stored response to revalidate, if the request is conditional.
        let validity: ResponseValidity?
        let bodyDirectory: URL?
        let temporaryBudget: DiskCacheTemporaryBudget?
        /// Whether the transfer already had a task, whose resumption the server refused: this
        /// one asks for the whole body, and is not counted as another transfer.
        let isRestart: Bool

        var url: URL { source.url }

        /// Whether the request may continue a kept partial body: not when revalidating (a 304
        /// or a whole new body is the answer wanted), nor after a refused resumption.
        var mayResume: Bool {
            validity == nil && !isRestart
        }
    }

    /// What removing a ticket leaves to do.
    struct Removal: Sendable {
        /// The ticket's completion, owed ``ImageStoreError/cancelled``.
        let completion: DownloadCompletion
        /// A transfer that lost its last ticket while under way, whose body may still arrive
        /// whole: cancelling a task on Linux takes effect some milliseconds later.
        let abandonedTransfer: Transfer?
        /// Transfers given the slot that freed up.
        let starts: [Start]

        /// The abandoned transfer's task: cancel it.
        var abandonedTask: SessionTask? { abandonedTransfer?.task }
    }

    typealias Transfers = CoalescingWorkQueue<SourceIdentity, Transfer, Transfer.Waiter>

    let maximumConcurrentTransfers: Int
    private(set) var transfers = Transfers()
    private var transferOfTask: [Int: TransferID] = [:]
    /// Transfers starting or under way: the slots taken.
    private(set) var activeTransfers = 0

    init(maximumConcurrentTransfers: Int) {
        self.maximumConcurrentTransfers = maximumConcurrentTransfers
    }

    /// Whether a transfer of `identity` is queued or under way.
    func hasTransfer(of identity: SourceIdentity) -> Bool {
        transfers.contains(identity)
    }

    /// Adds `ticket` to the transfer of its source's identity, or queues a new transfer.
    ///
    /// - Returns: The transfers to start now.
    ///
    /// - Parameters:
    ///   - validity: The stored response to revalidate; used only if this ticket makes the
    ///     transfer.
    ///   - bodyDirectory: Where the body's file goes; used only if this ticket makes the transfer.
    ///   - temporaryBudget: What the body's bytes there are counted against; the same.
    ///   - keepsAbandonedBody: Keeps a body that arrives after every ticket left; the same.
    mutating func add(
        _ ticket: DownloadTicket, for source: URLSource, revalidating validity: ResponseValidity?,
        bodyDirectory: URL?, temporaryBudget: DiskCacheTemporaryBudget? = nil,
        keepsAbandonedBody: AbandonedBodyKeeper? = nil, priority: ImageLoadPriority,
        completion: @escaping DownloadCompletion
    ) -> [Start] {
        let id =
            transfers.job(producing: source.identity)
            ?? transfers.create(
                source.identity,
                job: Transfer(
                    source: source, validity: validity?.canRevalidate == true ? validity : nil,
                    bodyDirectory: bodyDirectory, temporaryBudget: temporaryBudget,
                    keepsAbandonedBody: keepsAbandonedBody),
                coalesces: true, queued: true)
        transfers.add(Transfer.Waiter(id: ticket, priority: priority, completion: completion), to: id)
        return startQueued()
    }

    /// Takes `ticket` off its transfer. A queued transfer left without tickets is dropped and
    /// never reaches the server; one under way is ended here and its task returned to cancel.
    ///
    /// - Returns: What is left to do, or nil if the ticket is not waiting (any more).
    mutating func remove(_ ticket: DownloadTicket) -> Removal? {
        guard let (waiter, id, _) = transfers.remove(waiter: ticket), let entry = transfers[id] else { return nil }
        guard entry.waiters.isEmpty else {
            return Removal(completion: waiter.completion, abandonedTransfer: nil, starts: [])
        }
        end(id)
        return Removal(
            completion: waiter.completion, abandonedTransfer: entry.job.task == nil ? nil : entry.job,
            starts: startQueued())
    }

    /// The running task of the transfer that `ticket` alone waits for, if there is one.
    func soleRunningTask(of ticket: DownloadTicket) -> SessionTask? {
        guard let id = transfers.job(ofWaiter: ticket), let entry = transfers[id], entry.waiters.count == 1 else {
            return nil
        }
        return entry.job.task
    }

    /// Changes the priority `ticket` waits at; its transfer moves in the queue if the highest
    /// priority among its tickets changed.
    mutating func setPriority(_ priority: ImageLoadPriority, of ticket: DownloadTicket) {
        transfers.setPriority(priority, ofWaiter: ticket)
    }

    /// Records the task made for a starting transfer.
    ///
    /// - Returns: Whether to resume it; false when the transfer lost its tickets meanwhile, and
    ///   the task must be cancelled instead.
    mutating func attach(_ task: SessionTask, to transfer: TransferID) -> Bool {
        guard case .starting = transfers[transfer]?.job.phase else { return false }
        transfers.updateJob(transfer) { $0.phase = .running(task) }
        transferOfTask[task.task.taskIdentifier] = transfer
        return true
    }

    /// Ends the transfer whose task completed.
    ///
    /// - Returns: The transfer with its waiters, who are owed the outcome, and the transfers to
    ///   start in its slot; nil if the transfer ended already (its tickets left).
    mutating func finish(taskIdentifier: Int) -> (finished: Transfers.Entry, starts: [Start])? {
        guard let id = transferOfTask[taskIdentifier], let entry = transfers[id] else { return nil }
        end(id)
        return (entry, startQueued())
    }

    /// Takes the task of a transfer off it, to give the transfer a new task in the same slot: the
    /// server refused to continue a partial body, and the whole body is asked for instead.
    ///
    /// - Returns: The transfer to start again; nil if it ended already (its tickets left).
    mutating func restart(taskIdentifier: Int) -> Start? {
        guard let id = transferOfTask.removeValue(forKey: taskIdentifier),
            let transfer = markStarting(id)
        else { return nil }
        return Start(
            transfer: id, source: transfer.source, validity: transfer.validity, bodyDirectory: transfer.bodyDirectory,
            temporaryBudget: transfer.temporaryBudget, isRestart: true)
    }

    /// Ends every transfer.
    ///
    /// - Returns: Them all: their waiters are owed ``ImageStoreError/cancelled``, and the tasks
    ///   of those under way are to be cancelled.
    mutating func removeAll() -> [Transfers.Entry] {
        let all = Array(transfers.removeAll { _ in true }.values)
        transferOfTask = [:]
        activeTransfers = 0
        return all
    }

    /// Traps if the books disagree: every task points at a transfer that has it, every transfer
    /// has a ticket, and the slots taken are the transfers not queued. For tests.
    func _checkInvariants() {
        transfers._checkInvariants()
        for (task, id) in transferOfTask {
            precondition(transfers[id]?.job.task?.task.taskIdentifier == task, "task \(task) is not its transfer's")
        }
        let entries = transfers.entries.values
        precondition(entries.allSatisfy { !$0.waiters.isEmpty }, "a transfer without tickets")
        precondition(entries.allSatisfy { $0.isQueued == $0.job.isQueued }, "queued in the books and the phase")
        precondition(activeTransfers == entries.filter { !$0.isQueued }.count, "slots taken")
        precondition(activeTransfers <= maximumConcurrentTransfers, "over the limit")
    }

    /// Marks a transfer given a slot as starting (its task being made) and returns it.
    private mutating func markStarting(_ id: TransferID) -> Transfer? {
        transfers.updateJob(id) { transfer in
            transfer.phase = .starting
            return transfer
        }
    }

    private mutating func end(_ id: TransferID) {
        guard let entry = transfers.end(id) else { return }
        if let task = entry.job.task { transferOfTask[task.task.taskIdentifier] = nil }
        if !entry.isQueued { activeTransfers -= 1 }
    }

    /// Gives free slots to the queued transfers that come first.
    private mutating func startQueued() -> [Start] {
        var starts: [Start] = []
        while activeTransfers < maximumConcurrentTransfers, let next = transfers.takeNext(),
            let transfer = markStarting(next)
        {
            activeTransfers += 1
            starts.append(
                Start(
                    transfer: next, source: transfer.source, validity: transfer.validity,
                    bodyDirectory: transfer.bodyDirectory, temporaryBudget: transfer.temporaryBudget,
                    isRestart: false))
        }
        return starts
    }
}

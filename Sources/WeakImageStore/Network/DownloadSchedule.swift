import Foundation

/// The transfers in progress, one per URL identity, and the order the queued ones start in: at
/// most ``maximumConcurrentTransfers`` under way, and the next one the highest priority among
/// its tickets, the newest first within a priority (the store's ``LoadQueue``, for the reasons
/// given there). URLSession on Linux ignores task priorities, so the order is decided here.
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
        /// The task of a transfer that lost its last ticket while under way: cancel it.
        let abandonedTask: SessionTask?
        /// Transfers given the slot that freed up.
        let starts: [Start]
    }

    let maximumConcurrentTransfers: Int
    private(set) var transfers: [TransferID: Transfer] = [:]
    private var transferOfIdentity: [SourceIdentity: TransferID] = [:]
    private var transferOfTicket: [DownloadTicket: TransferID] = [:]
    private var transferOfTask: [Int: TransferID] = [:]
    private var queue = LoadQueue()
    /// Transfers starting or under way: the slots taken.
    private(set) var activeTransfers = 0
    private var nextTransferID = 0

    init(maximumConcurrentTransfers: Int) {
        self.maximumConcurrentTransfers = maximumConcurrentTransfers
    }

    /// Whether a transfer of `identity` is queued or under way.
    func hasTransfer(of identity: SourceIdentity) -> Bool {
        transferOfIdentity[identity] != nil
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
    mutating func add(
        _ ticket: DownloadTicket, for source: URLSource, revalidating validity: ResponseValidity?,
        bodyDirectory: URL?, temporaryBudget: DiskCacheTemporaryBudget? = nil, priority: ImageLoadPriority,
        completion: @escaping DownloadCompletion
    ) -> [Start] {
        let id: TransferID
        if let existing = transferOfIdentity[source.identity] {
            id = existing
        } else {
            nextTransferID += 1
            id = nextTransferID
            transfers[id] = Transfer(
                source: source, validity: validity?.canRevalidate == true ? validity : nil,
                bodyDirectory: bodyDirectory, temporaryBudget: temporaryBudget)
            transferOfIdentity[source.identity] = id
        }
        transfers[id]?.waiters[ticket] = Transfer.Waiter(priority: priority, completion: completion)
        transferOfTicket[ticket] = id
        requeue(id)
        return startQueued()
    }

    /// Takes `ticket` off its transfer. A queued transfer left without tickets is dropped and
    /// never reaches the server; one under way is ended here and its task returned to cancel.
    ///
    /// - Returns: What is left to do, or nil if the ticket is not waiting (any more).
    mutating func remove(_ ticket: DownloadTicket) -> Removal? {
        guard let id = transferOfTicket.removeValue(forKey: ticket),
            let waiter = transfers[id]?.waiters.removeValue(forKey: ticket), let transfer = transfers[id]
        else { return nil }
        guard transfer.waiters.isEmpty else {
            requeue(id)
            return Removal(completion: waiter.completion, abandonedTask: nil, starts: [])
        }
        end(id)
        return Removal(completion: waiter.completion, abandonedTask: transfer.task, starts: startQueued())
    }

    /// Changes the priority `ticket` waits at; its transfer moves in the queue if the highest
    /// priority among its tickets changed.
    mutating func setPriority(_ priority: ImageLoadPriority, of ticket: DownloadTicket) {
        guard let id = transferOfTicket[ticket] else { return }
        transfers[id]?.waiters[ticket]?.priority = priority
        requeue(id)
    }

    /// Records the task made for a starting transfer.
    ///
    /// - Returns: Whether to resume it; false when the transfer lost its tickets meanwhile, and
    ///   the task must be cancelled instead.
    mutating func attach(_ task: SessionTask, to transfer: TransferID) -> Bool {
        guard var started = transfers[transfer], case .starting = started.phase else { return false }
        started.phase = .running(task)
        transfers[transfer] = started
        transferOfTask[task.task.taskIdentifier] = transfer
        return true
    }

    /// Ends the transfer whose task completed.
    ///
    /// - Returns: The transfer, whose waiters are owed the outcome, and the transfers to start in
    ///   its slot; nil if the transfer ended already (its tickets left).
    mutating func finish(taskIdentifier: Int) -> (finished: Transfer, starts: [Start])? {
        guard let id = transferOfTask[taskIdentifier], let transfer = transfers[id] else { return nil }
        end(id)
        return (transfer, startQueued())
    }

    /// Takes the task of a transfer off it, to give the transfer a new task in the same slot: the
    /// server refused to continue a partial body, and the whole body is asked for instead.
    ///
    /// - Returns: The transfer to start again; nil if it ended already (its tickets left).
    mutating func restart(taskIdentifier: Int) -> Start? {
        guard let id = transferOfTask.removeValue(forKey: taskIdentifier), var transfer = transfers[id] else {
            return nil
        }
        transfer.phase = .starting
        transfers[id] = transfer
        return Start(
            transfer: id, source: transfer.source, validity: transfer.validity, bodyDirectory: transfer.bodyDirectory,
            temporaryBudget: transfer.temporaryBudget, isRestart: true)
    }

    /// Ends every transfer.
    ///
    /// - Returns: Them all: their waiters are owed ``ImageStoreError/cancelled``, and the tasks
    ///   of those under way are to be cancelled.
    mutating func removeAll() -> [Transfer] {
        let all = Array(transfers.values)
        transfers = [:]
        transferOfIdentity = [:]
        transferOfTicket = [:]
        transferOfTask = [:]
        queue.removeAll()
        activeTransfers = 0
        return all
    }

    /// Traps if the tables disagree: every ticket and task points at a transfer that has it,
    /// every identity at its transfer, and the slots taken are the transfers not queued. For
    /// tests.
    func _checkInvariants() {
        precondition(transferOfIdentity.count == transfers.count, "one transfer per identity")
        for (identity, id) in transferOfIdentity {
            precondition(transfers[id]?.source.identity == identity, "identity \(identity) points elsewhere")
        }
        precondition(transferOfTicket.count == transfers.values.reduce(0) { $0 + $1.waiters.count }, "ticket count")
        for (ticket, id) in transferOfTicket {
            precondition(transfers[id]?.waiters[ticket] != nil, "ticket \(ticket.id) is not its transfer's")
        }
        for (task, id) in transferOfTask {
            precondition(transfers[id]?.task?.task.taskIdentifier == task, "task \(task) is not its transfer's")
        }
        precondition(transfers.values.allSatisfy { !$0.waiters.isEmpty }, "a transfer without tickets")
        precondition(activeTransfers == transfers.values.filter { !$0.isQueued }.count, "slots taken")
        precondition(activeTransfers <= maximumConcurrentTransfers, "over the limit")
    }

    private mutating func end(_ id: TransferID) {
        guard let transfer = transfers.removeValue(forKey: id) else { return }
        transferOfIdentity[transfer.source.identity] = nil
        for ticket in transfer.waiters.keys { transferOfTicket[ticket] = nil }
        if let task = transfer.task { transferOfTask[task.task.taskIdentifier] = nil }
        if !transfer.isQueued { activeTransfers -= 1 }
    }

    /// Gives free slots to the queued transfers that come first.
    private mutating func startQueued() -> [Start] {
        var starts: [Start] = []
        while activeTransfers < maximumConcurrentTransfers {
            guard let next = nextQueued(), var transfer = transfers[next] else { break }
            transfer.phase = .starting
            transfers[next] = transfer
            activeTransfers += 1
            starts.append(
                Start(
                    transfer: next, source: transfer.source, validity: transfer.validity,
                    bodyDirectory: transfer.bodyDirectory, temporaryBudget: transfer.temporaryBudget,
                    isRestart: false))
        }
        return starts
    }

    /// Takes the queued transfer that comes first, skipping stale entries.
    private mutating func nextQueued() -> TransferID? {
        // A copy for the closure, released on return, before `transfers` is written again.
        let transfers = self.transfers
        return queue.next { entry in
            transfers[entry.load].map { $0.isQueued && $0.queueTicket == entry.ticket } ?? false
        }
    }

    /// Queues `id` again if it is queued and the highest priority among its tickets changed.
    private mutating func requeue(_ id: TransferID) {
        guard var transfer = transfers[id], transfer.isQueued, let priority = transfer.priority,
            transfer.queueTicket == 0 || priority != transfer.queuedPriority
        else { return }
        transfer.queueTicket = queue.enqueue(id, at: priority)
        transfer.queuedPriority = priority
        transfers[id] = transfer
    }
}

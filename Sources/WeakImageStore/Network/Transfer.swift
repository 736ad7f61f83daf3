import Foundation

/// Identifies a transfer within its ``DownloadSchedule``.
typealias TransferID = Int

/// What a ticket is called back with: the transfer's response, or why there is none.
typealias DownloadCompletion = @Sendable (Result<DownloadResponse, ImageStoreError>) -> Void

/// What keeps a whole body that arrived after every ticket left: the disk cache's write.
typealias AbandonedBodyKeeper = @Sendable (DownloadResponse) -> Void

/// One transfer of one URL identity (the tickets waiting for it are its
/// ``DownloadSchedule``'s).
///
/// What is asked for is decided by the ticket that made the transfer: whether it revalidates a
/// stored response, and where the body's file goes. Tickets that join later get the same
/// response, a `304` included.
struct Transfer: Sendable {
    /// Where the transfer is in its life.
    enum Phase: Sendable {
        /// Waiting for a free slot in the queue.
        case queued
        /// Given a slot; its task is being made, outside the lock.
        case starting
        /// Its task is under way.
        case running(SessionTask)
    }

    /// A ticket's wait.
    struct Waiter: PrioritizedWaiter {
        let id: DownloadTicket
        var priority: ImageLoadPriority
        let completion: DownloadCompletion
    }

    /// The URL fetched, and the identity the transfer is shared by.
    let source: URLSource
    /// The stored response to revalidate (the first ticket's), if it has a validator to send.
    let validity: ResponseValidity?
    /// Where the body's file goes (the first ticket's); nil for the downloader's own folder.
    let bodyDirectory: URL?
    /// What the body's bytes in ``bodyDirectory`` are counted against (the first ticket's); nil
    /// for none.
    let temporaryBudget: DiskCacheTemporaryBudget?
    /// Keeps the body if it arrives whole after the last ticket left (the first ticket's); nil
    /// to drop it.
    let keepsAbandonedBody: AbandonedBodyKeeper?
    var phase = Phase.queued

    init(
        source: URLSource, validity: ResponseValidity?, bodyDirectory: URL?,
        temporaryBudget: DiskCacheTemporaryBudget?, keepsAbandonedBody: AbandonedBodyKeeper? = nil
    ) {
        self.source = source
        self.validity = validity
        self.bodyDirectory = bodyDirectory
        self.temporaryBudget = temporaryBudget
        self.keepsAbandonedBody = keepsAbandonedBody
    }

    var isQueued: Bool {
        if case .queued = phase { true } else { false }
    }

    /// The task, if the transfer is under way.
    var task: SessionTask? {
        if case .running(let task) = phase { task } else { nil }
    }
}

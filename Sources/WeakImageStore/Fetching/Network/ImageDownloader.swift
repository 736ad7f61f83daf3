import Dispatch
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Downloads the bytes of `http` and `https` images: one transfer per URL however many lookups
/// wait for it, at most `maximumConcurrentDownloads` at once in the order of their waiters'
/// priorities, each streamed to a temporary file and delivered only when complete and checked.
///
/// An ``ImageStore`` makes one by default; make one yourself to change its limits, to add
/// headers, or to share one set of transfers and limits between stores.
///
/// | the server or network | the waiting lookups get |
/// |---|---|
/// | a 2xx response, whole | the body |
/// | another status | ``ImageStoreError/httpStatus(_:code:)``, the body unread |
/// | `Content-Length`, or the body, over `maximumResponseSize` | ``ImageStoreError/responseTooLarge(_:limit:)``, the connection closed at the limit |
/// | a body shorter than its `Content-Length` | ``ImageStoreError/responseTruncated(_:expected:received:)`` |
/// | more than 10 redirects, or one from https to http | ``ImageStoreError/downloadFailed(_:reason:)`` |
/// | a refused connection, a timeout, a lost connection | ``ImageStoreError/downloadFailed(_:reason:)`` |
///
/// Every error names the URL that was asked for. A failed URL is not requested again for
/// `failureBackoff` seconds: lookups meanwhile get the same error at once. Nothing is cached:
/// the session has no `URLCache` and no cookies (the store's own caches do the caching).
public final class ImageDownloader: Sendable {
    private struct State: Sendable {
        var schedule: DownloadSchedule
        var recentFailures: RecentFailures
        var statistics = DownloadStatistics()
        var nextTicket = 0
        /// Set by `deinit`: no transfer starts after it.
        var isClosed = false

        /// What a new ticket leads to.
        enum Admission {
            /// Start these transfers (none when the ticket joined one, or waits its turn).
            case start([DownloadSchedule.Start])
            /// The identity failed within the back-off: this is its error.
            case failedRecently(ImageStoreError)
        }

        mutating func admit(
            _ source: URLSource, priority: ImageLoadPriority, completion: @escaping DownloadCompletion, now: UInt64
        ) -> (DownloadTicket, Admission) {
            nextTicket += 1
            let ticket = DownloadTicket(id: nextTicket)
            if !schedule.hasTransfer(of: source.identity),
                let error = recentFailures.failure(of: source.identity, now: now)
            {
                return (ticket, .failedRecently(error))
            }
            return (ticket, .start(schedule.add(ticket, for: source, priority: priority, completion: completion)))
        }

        mutating func remove(_ ticket: DownloadTicket) -> DownloadSchedule.Removal? {
            let removal = schedule.remove(ticket)
            if removal?.abandonedTask != nil { statistics.downloadsCancelled += 1 }
            return removal
        }

        mutating func attach(_ task: SessionTask, to transfer: TransferID) -> Bool {
            guard !isClosed, schedule.attach(task, to: transfer) else { return false }
            statistics.downloadsStarted += 1
            return true
        }

        /// Ends the transfer of `taskIdentifier` with `outcome`.
        ///
        /// - Returns: The completions owed the outcome and the transfers to start; nil if nobody
        ///   waits for the transfer any more.
        mutating func finish(
            taskIdentifier: Int, with outcome: Result<Data, ImageStoreError>, now: UInt64
        ) -> (completions: [DownloadCompletion], starts: [DownloadSchedule.Start])? {
            guard let (transfer, starts) = schedule.finish(taskIdentifier: taskIdentifier) else { return nil }
            switch outcome {
            case .success:
                statistics.downloadsCompleted += 1
            case .failure(.cancelled):
                break  // Not the URL's fault: nothing to remember.
            case .failure(let error):
                recentFailures.remember(error, for: transfer.source.identity, now: now)
            }
            return (transfer.waiters.values.map(\.completion), starts)
        }
    }

    private let state: Lock<State>
    private let session: SharedSession
    /// The session's delegate; internal so tests can see it go away with the session.
    let sessionDelegate: DownloadSessionDelegate
    private let requestModifier: (@Sendable (inout URLRequest) -> Void)?
    private let requestTimeout: TimeInterval

    /// Creates a downloader with its own URLSession.
    ///
    /// - Parameters:
    ///   - configuration: The session's configuration, copied; its `urlCache` and cookie storage
    ///     are turned off. Defaults to `.ephemeral`. Its `timeoutIntervalForRequest` is each
    ///     request's timeout.
    ///   - maximumConcurrentDownloads: Transfers under way at once; at least 1. Defaults to 6.
    ///   - maximumResponseSize: The most body bytes a response may declare or deliver; at least
    ///     0. Defaults to 64 MiB.
    ///   - failureBackoff: Seconds a URL that failed is not requested again; lookups meanwhile
    ///     get its error at once. `0` (or `.zero`) remembers no failure. Defaults to 3.
    ///   - requestModifier: Changes each request before it is sent: headers, authorization.
    ///     Called once per transfer, on the thread that starts it, never under a lock. Defaults
    ///     to none.
    public convenience init(
        configuration: URLSessionConfiguration = .ephemeral,
        maximumConcurrentDownloads: Int = 6,
        maximumResponseSize: Int = 64 * 1024 * 1024,
        failureBackoff: TimeInterval = 3,
        requestModifier: (@Sendable (inout URLRequest) -> Void)? = nil
    ) {
        self.init(
            configuration: configuration, maximumConcurrentDownloads: maximumConcurrentDownloads,
            maximumResponseSize: maximumResponseSize, failureBackoff: failureBackoff,
            requestModifier: requestModifier, temporaryDirectory: nil)
    }

    /// Creates a downloader whose bodies are written in `temporaryDirectory`.
    ///
    /// - Parameter temporaryDirectory: A folder for the bodies being downloaded, created if
    ///   missing; only the downloader's own files in it are deleted. `nil` makes a fresh folder
    ///   under the system's temporary directory, deleted when the downloader goes.
    init(
        configuration: URLSessionConfiguration = .ephemeral,
        maximumConcurrentDownloads: Int = 6,
        maximumResponseSize: Int = 64 * 1024 * 1024,
        failureBackoff: TimeInterval = 3,
        requestModifier: (@Sendable (inout URLRequest) -> Void)? = nil,
        temporaryDirectory: URL?
    ) {
        precondition(maximumConcurrentDownloads >= 1, "maximumConcurrentDownloads must be at least 1")
        precondition(maximumResponseSize >= 0, "maximumResponseSize must not be negative")
        precondition(failureBackoff >= 0, "failureBackoff must not be negative")
        sessionDelegate = DownloadSessionDelegate(
            directory: temporaryDirectory ?? Self.makeTemporaryDirectoryURL(),
            removesDirectoryWhenInvalidated: temporaryDirectory == nil, maximumResponseSize: maximumResponseSize)
        let sessionConfiguration = Self.sessionConfiguration(from: configuration)
        requestTimeout = sessionConfiguration.timeoutIntervalForRequest
        session = SharedSession(session: Self.makeSession(sessionConfiguration, delegate: sessionDelegate))
        self.requestModifier = requestModifier
        state = Lock(
            State(
                schedule: DownloadSchedule(maximumConcurrentTransfers: maximumConcurrentDownloads),
                recentFailures: RecentFailures(backoff: failureBackoff)))
        sessionDelegate.attach(self)
    }

    deinit {
        let transfers = state.withLock { state in
            state.isClosed = true
            return state.schedule.removeAll()
        }
        // Cancels every task; their completions reach the delegate, which deletes their files.
        session.session.invalidateAndCancel()
        let completions = transfers.flatMap { $0.waiters.values.map(\.completion) }
        guard !completions.isEmpty else { return }
        DispatchQueue.global().async {
            for completion in completions { completion(.failure(.cancelled)) }
        }
    }

    /// Starts (or joins) the transfer of `source.url`, deduplicated by `source.identity`.
    ///
    /// `completion` is called exactly once, never on the caller's stack and never under a lock:
    /// with the outcome of the transfer, on the session's delegate queue (keep it short: other
    /// transfers' events wait behind it); or, on a global dispatch queue, with
    /// ``ImageStoreError/cancelled`` after ``cancel(_:)``, or with the remembered error of a URL
    /// that failed within the back-off.
    ///
    /// - Parameters:
    ///   - source: The URL and the identity transfers are shared by.
    ///   - priority: How soon the transfer should start, if it has to wait for a slot.
    ///   - completion: Gets the complete body, or the error.
    /// - Returns: The ticket that cancels this wait or changes its priority.
    func download(
        _ source: URLSource, priority: ImageLoadPriority, completion: @escaping DownloadCompletion
    ) -> DownloadTicket {
        let now = DispatchTime.now().uptimeNanoseconds
        let (ticket, admission) = state.withLock {
            $0.admit(source, priority: priority, completion: completion, now: now)
        }
        switch admission {
        case .start(let starts):
            start(starts)
        case .failedRecently(let error):
            DispatchQueue.global().async { completion(.failure(error)) }
        }
        return ticket
    }

    /// Stops `ticket`'s wait: its completion gets ``ImageStoreError/cancelled`` at once (on a
    /// global dispatch queue). When the transfer's last ticket leaves, a queued transfer is
    /// dropped and never reaches the server; one under way is cancelled at the socket, and
    /// nothing it received is kept. A ticket that already got its outcome is ignored.
    func cancel(_ ticket: DownloadTicket) {
        guard let removal = state.withLock({ $0.remove(ticket) }) else { return }
        removal.abandonedTask?.cancel()
        start(removal.starts)
        DispatchQueue.global().async { removal.completion(.failure(.cancelled)) }
    }

    /// Changes the priority `ticket` waits at: the store's load gained or lost waiters. Only a
    /// queued transfer's place in the queue changes.
    func setPriority(_ priority: ImageLoadPriority, of ticket: DownloadTicket) {
        state.withLock { $0.schedule.setPriority(priority, of: ticket) }
    }

    /// The counters since the downloader was created.
    var statistics: DownloadStatistics {
        state.withLock { $0.statistics }
    }

    /// Traps if the schedule's tables disagree; for tests.
    func _checkInvariants() {
        state.withLock { $0.schedule._checkInvariants() }
    }

    // MARK: Session events, from the delegate

    /// Counts body bytes as they arrive.
    func bodyBytesReceived(_ count: Int) {
        state.withLock { $0.statistics.bytesDownloaded += count }
    }

    /// Delivers a task's outcome to every ticket of its transfer and gives its slot to the next.
    func transferEnded(taskIdentifier: Int, with outcome: Result<Data, ImageStoreError>) {
        let now = DispatchTime.now().uptimeNanoseconds
        guard let ending = state.withLock({ $0.finish(taskIdentifier: taskIdentifier, with: outcome, now: now) })
        else { return }
        start(ending.starts)
        for completion in ending.completions { completion(outcome) }
    }

    // MARK: Starting transfers

    /// Makes and resumes the tasks of transfers given a slot, outside the lock: the request
    /// modifier is the app's code.
    private func start(_ starts: [DownloadSchedule.Start]) {
        for start in starts {
            var request = URLRequest(
                url: start.url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: requestTimeout)
            requestModifier?(&request)
            let task = session.session.dataTask(with: request)
            sessionDelegate.expect(taskIdentifier: task.taskIdentifier, url: start.url)
            let attached = state.withLock { $0.attach(SessionTask(task: task), to: start.transfer) }
            // A transfer that lost its tickets meanwhile never reaches the server; cancelling the
            // unstarted task lets the session forget it.
            if attached { task.resume() } else { task.cancel() }
        }
    }
}

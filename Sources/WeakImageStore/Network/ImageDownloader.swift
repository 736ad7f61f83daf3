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
/// | 304 to a conditional request | `.notModified`: the stored body is still good |
/// | another status | ``ImageStoreError/httpStatus(_:code:)``, the body unread |
/// | `Content-Length`, or the body, over `maximumResponseSize` | ``ImageStoreError/responseTooLarge(_:limit:)``, the connection closed at the limit |
/// | a body shorter than its `Content-Length` | ``ImageStoreError/responseTruncated(_:expected:received:)`` |
/// | more than 10 redirects, one from https to http, or one to anything but http(s) | ``ImageStoreError/downloadFailed(_:reason:)`` |
/// | a transfer over `transferTimeout`, or under `minimumBytesPerWindow` in a `transferRateWindow` | ``ImageStoreError/downloadFailed(_:reason:)``, the connection closed and the slot freed |
/// | a refused connection, a timeout, a lost connection | ``ImageStoreError/downloadFailed(_:reason:)`` |
///
/// Every error names the URL that was asked for (its user name and password left out of the
/// message). A redirect to another origin carries none of the fields the request modifier set
/// for the first one (see `requestModifier`). A failed URL is not requested again for
/// `failureBackoff` seconds, doubled for each failure in a row up to 5 minutes, plus up to a
/// quarter at random: lookups meanwhile get the same error at once. A body the store could not
/// decode counts as a failure too. A large body cut
/// short is kept, and the next transfer of its URL asks only for the rest. Nothing is cached:
/// the session has no `URLCache` and no cookies (the store's own caches do the caching).
///
/// Completions run on the downloader's own serial queue, never on a global queue (whose workers
/// Swift's cooperative pool shares on Linux) nor on the session's delegate queue.
public final class ImageDownloader: Sendable {
    private struct State: Sendable {
        var schedule: DownloadSchedule
        var recentFailures: RecentFailures
        var statistics = DownloadStatistics()
        /// Bodies cut short, kept to be continued by the next transfer of their identity.
        var partialBodies: PartialBodies
        var nextTicket = 0
        /// Tickets cancelled while their transfer's response was due, by task: cut when the
        /// response shows more than a partial body's length to come (see ``cancel(_:)``).
        var heldTickets: [Int: DownloadTicket] = [:]
        /// Whole bodies whose completions have not all run yet, by identity, with the number of
        /// deliveries of them under way: a ticket for the same identity meanwhile gets the same
        /// response rather than a second transfer (the first completion writes the disk cache).
        var deliveringBodies: [SourceIdentity: (response: DownloadResponse, deliveries: Int)] = [:]
        /// Transfers cancelled under way that keep a body still arriving whole, by task.
        var abandonedTransfers: [Int: Transfer] = [:]
        /// Set by `deinit`: no transfer starts after it.
        var isClosed = false

        /// What a new ticket leads to.
        enum Admission {
            /// Start these transfers (none when the ticket joined one, or waits its turn).
            case start([DownloadSchedule.Start])
            /// The identity failed within the back-off: this is its error.
            case failedRecently(ImageStoreError)
            /// The identity's body just arrived and its completions are running: this is it.
            case delivering(DownloadResponse)
        }

        mutating func admit(
            _ source: URLSource, revalidating validity: ResponseValidity?, bodyDirectory: URL?,
            temporaryBudget: DiskCacheTemporaryBudget?, keepsAbandonedBody: AbandonedBodyKeeper?,
            priority: ImageLoadPriority, completion: @escaping DownloadCompletion, now: UInt64
        ) -> (DownloadTicket, Admission) {
            nextTicket += 1
            let ticket = DownloadTicket(id: nextTicket)
            if !schedule.hasTransfer(of: source.identity) {
                if let error = recentFailures.failure(of: source.identity, now: now) {
                    return (ticket, .failedRecently(error))
                }
                if let delivering = deliveringBodies[source.identity] {
                    return (ticket, .delivering(delivering.response))
                }
            }
            let starts = schedule.add(
                ticket, for: source, revalidating: validity, bodyDirectory: bodyDirectory,
                temporaryBudget: temporaryBudget, keepsAbandonedBody: keepsAbandonedBody, priority: priority,
                completion: completion)
            return (ticket, .start(starts))
        }

        mutating func remove(_ ticket: DownloadTicket) -> DownloadSchedule.Removal? {
            let removal = schedule.remove(ticket)
            if removal?.abandonedTask != nil { statistics.downloadsCancelled += 1 }
            if let transfer = removal?.abandonedTransfer, let task = transfer.task, transfer.keepsAbandonedBody != nil {
                abandonedTransfers[task.task.taskIdentifier] = transfer
            }
            return removal
        }

        /// Records the task of `start`.
        ///
        /// - Returns: Whether to resume it.
        mutating func attach(_ task: SessionTask, for start: DownloadSchedule.Start) -> Bool {
            guard !isClosed, schedule.attach(task, to: start.transfer) else { return false }
            if !start.isRestart { statistics.downloadsStarted += 1 }
            return true
        }

        /// What ending a task leaves to do, after unlocking.
        struct Ended {
            /// Owed the outcome.
            var completions: [DownloadCompletion] = []
            /// Transfers given a slot.
            var starts: [DownloadSchedule.Start] = []
            /// Partial bodies dropped: delete their files.
            var deletions: [PartialBody] = []
            /// The identity of a whole body to deliver, registered in ``deliveringBodies``.
            var deliveredBody: SourceIdentity?
            /// A whole body that arrived after its transfer's last ticket left, and what keeps it.
            var abandonedBody: (response: DownloadResponse, keeper: AbandonedBodyKeeper)?
        }

        /// Ends the task `taskIdentifier` as `ending` says: delivers its outcome (or starts its
        /// transfer again without a range) and keeps its partial body.
        mutating func end(taskIdentifier: Int, with ending: ResponseStream.Ending, now: UInt64) -> Ended {
            heldTickets[taskIdentifier] = nil
            let abandoned = abandonedTransfers.removeValue(forKey: taskIdentifier)
            guard case .finished(let outcome, let partial, let resumedBytes) = ending else {
                return Ended(starts: schedule.restart(taskIdentifier: taskIdentifier).map { [$0] } ?? [])
            }
            var ended = Ended()
            if resumedBytes > 0 {
                statistics.downloadsResumed += 1
                statistics.bytesResumed += resumedBytes
            }
            if let partial {
                // Kept even when the transfer ended already: its last ticket left mid-body.
                if isClosed { ended.deletions.append(partial) } else { ended.deletions = partialBodies.keep(partial) }
            }
            guard let (transfer, starts) = schedule.finish(taskIdentifier: taskIdentifier) else {
                // Cancelled too late to stop it: a whole body is kept all the same, or the next
                // lookup sends it whole again.
                if let abandoned, let keeper = abandoned.keepsAbandonedBody, case .success(let response) = outcome,
                    case .body = response.content
                {
                    ended.abandonedBody = (response, keeper)
                    register(response, of: abandoned.source.identity, in: &ended)
                }
                return ended
            }
            ended.starts = starts
            ended.completions = transfer.waiters.map(\.completion)
            switch outcome {
            case .success(let response):
                statistics.downloadsCompleted += 1
                if case .body = response.content, !ended.completions.isEmpty {
                    register(response, of: transfer.job.source.identity, in: &ended)
                }
                // A whole new body supersedes a partial one kept meanwhile.
                if response.body != nil, let stale = partialBodies.take(transfer.job.source.identity) {
                    ended.deletions.append(stale)
                }
            case .failure(.cancelled):
                break  // Not the URL's fault: nothing to remember.
            case .failure(let error):
                recentFailures.remember(error, for: transfer.job.source.identity, now: now)
            }
            return ended
        }

        /// Makes `response` the body of `identity` that new tickets get until its delivery ends
        /// (``deliveryEnded(of:)``).
        private mutating func register(
            _ response: DownloadResponse, of identity: SourceIdentity, in ended: inout Ended
        ) {
            deliveringBodies[identity] = (response, (deliveringBodies[identity]?.deliveries ?? 0) + 1)
            ended.deliveredBody = identity
        }

        /// One delivery of `identity`'s body ended: after the last, new tickets make a transfer.
        mutating func deliveryEnded(of identity: SourceIdentity) {
            guard let delivering = deliveringBodies[identity] else { return }
            deliveringBodies[identity] =
                delivering.deliveries > 1 ? (delivering.response, delivering.deliveries - 1) : nil
        }
    }

    /// The longest back-off after failures in a row, before its random part: 5 minutes.
    static let maximumFailureBackoff: TimeInterval = 300

    private let state: Lock<State>
    /// What whole transfers cost, per host: the network part of ``LoadEstimate``.
    let meter = LoadMeter()
    private let session: SharedSession
    /// Where every completion is called, one at a time: a private serial queue, which libdispatch
    /// drains with threads of its own. The global queues share their workers with Swift's
    /// cooperative pool on Linux, and the session's delegate queue must stay free for the other
    /// transfers' events, so a completion that blocks (a disk write) holds up neither.
    private let deliveryQueue = SerialQueue(label: "WeakImageStore.ImageDownloader.delivery")
    /// The session's delegate; internal so tests can see it go away with the session.
    let sessionDelegate: DownloadSessionDelegate
    private let requestModifier: (@Sendable (inout URLRequest) -> Void)?
    private let requestTimeout: TimeInterval
    private let maximumResponseSize: Int

    /// Creates a downloader with its own URLSession.
    ///
    /// - Parameters:
    ///   - configuration: The session's configuration, copied; its `urlCache` and cookie storage
    ///     are turned off. Defaults to `.ephemeral`. Its `timeoutIntervalForRequest` is each
    ///     request's timeout.
    ///   - maximumConcurrentDownloads: Transfers under way at once; at least 1. Defaults to 6.
    ///   - maximumResponseSize: The most body bytes a response may declare or deliver; at least
    ///     0. Defaults to 64 MiB.
    ///   - failureBackoff: Seconds a URL that failed once is not requested again (doubled for
    ///     each failure in a row, up to 5 minutes, plus up to a quarter at random); lookups meanwhile
    ///     get its error at once. `0` (or `.zero`) remembers no failure. Defaults to 3.
    ///   - transferTimeout: The most seconds one transfer may take, from its request to its
    ///     last byte, however steadily the bytes come; more than 0, `.infinity` for no limit.
    ///     The session's own resource timeout (a week for `.ephemeral`) would let six trickling
    ///     servers hold every slot for days. Defaults to 120.
    ///   - minimumBytesPerWindow: The fewest body bytes a transfer must receive in any
    ///     `transferRateWindow` seconds once its response arrived, or it is cut off; at least 0,
    ///     `0` for no minimum. The request timeout restarts with every byte, so a server sending
    ///     one now and then would never time out. Defaults to 8 KiB (a 20-second window: 410
    ///     bytes a second, well under the slowest mobile link shared by six transfers).
    ///   - transferRateWindow: Seconds over which `minimumBytesPerWindow` is measured; more
    ///     than 0. Defaults to 20.
    ///   - requestModifier: Changes each request before it is sent: headers, authorization.
    ///     Called once per transfer, on the thread that starts it, and again for each redirect to
    ///     another origin (scheme, host and port) on the session's queue, with a fresh request
    ///     for the new URL: what it set for one origin never reaches another unless it sets it
    ///     again. Never called under a lock. Defaults to none.
    public convenience init(
        configuration: URLSessionConfiguration = .ephemeral,
        maximumConcurrentDownloads: Int = 6,
        maximumResponseSize: Int = 64 * 1024 * 1024,
        failureBackoff: TimeInterval = 3,
        transferTimeout: TimeInterval = 120,
        minimumBytesPerWindow: Int = 8 * 1024,
        transferRateWindow: TimeInterval = 20,
        requestModifier: (@Sendable (inout URLRequest) -> Void)? = nil
    ) {
        self.init(
            configuration: configuration, maximumConcurrentDownloads: maximumConcurrentDownloads,
            maximumResponseSize: maximumResponseSize, failureBackoff: failureBackoff,
            transferTimeout: transferTimeout, minimumBytesPerWindow: minimumBytesPerWindow,
            transferRateWindow: transferRateWindow, requestModifier: requestModifier, temporaryDirectory: nil)
    }

    /// Creates a downloader whose bodies are written in `temporaryDirectory`; the other
    /// parameters are the public initialiser's, whose signature alone holds their defaults.
    ///
    /// - Parameter temporaryDirectory: A folder for the bodies being downloaded, created if
    ///   missing; only the downloader's own files in it are deleted. `nil` makes a fresh folder
    ///   under the system's temporary directory, deleted when the downloader goes.
    init(
        configuration: URLSessionConfiguration, maximumConcurrentDownloads: Int, maximumResponseSize: Int,
        failureBackoff: TimeInterval, transferTimeout: TimeInterval, minimumBytesPerWindow: Int,
        transferRateWindow: TimeInterval, requestModifier: (@Sendable (inout URLRequest) -> Void)? = nil,
        temporaryDirectory: URL?
    ) {
        precondition(maximumConcurrentDownloads >= 1, "maximumConcurrentDownloads must be at least 1")
        precondition(maximumResponseSize >= 0, "maximumResponseSize must not be negative")
        precondition(failureBackoff >= 0, "failureBackoff must not be negative")
        precondition(transferTimeout > 0, "transferTimeout must be more than 0")
        precondition(minimumBytesPerWindow >= 0, "minimumBytesPerWindow must not be negative")
        precondition(transferRateWindow > 0 && transferRateWindow.isFinite, "transferRateWindow must be more than 0")
        let sessionConfiguration = Self.sessionConfiguration(from: configuration)
        requestTimeout = sessionConfiguration.timeoutIntervalForRequest
        sessionDelegate = DownloadSessionDelegate(
            directory: temporaryDirectory ?? Self.makeTemporaryDirectoryURL(),
            removesDirectoryWhenInvalidated: temporaryDirectory == nil,
            paceLimits: TransferWatch.Limits(
                timeout: transferTimeout, minimumBytesPerWindow: minimumBytesPerWindow, window: transferRateWindow),
            requestTimeout: requestTimeout, requestModifier: requestModifier)
        self.maximumResponseSize = maximumResponseSize
        session = SharedSession(
            session: Self.makeSession(
                sessionConfiguration, delegate: sessionDelegate, queue: sessionDelegate.queue.queue))
        self.requestModifier = requestModifier
        state = Lock(
            State(
                schedule: DownloadSchedule(maximumConcurrentTransfers: maximumConcurrentDownloads),
                recentFailures: RecentFailures(
                    backoff: failureBackoff, maximumBackoff: max(failureBackoff, Self.maximumFailureBackoff)),
                partialBodies: PartialBodies(maximumTotalLength: maximumResponseSize)))
        sessionDelegate.attach(self)
    }

    deinit {
        let (transfers, partialBodies) = state.withLock { state in
            state.isClosed = true
            return (state.schedule.removeAll(), state.partialBodies.removeAll())
        }
        for partialBody in partialBodies { partialBody.delete() }
        // Cancels every task; their completions reach the delegate, which deletes their files.
        session.session.invalidateAndCancel()
        let completions = transfers.flatMap { $0.waiters.map(\.completion) }
        guard !completions.isEmpty else { return }
        deliveryQueue.queue.async {
            for completion in completions { completion(.failure(.cancelled)) }
        }
    }

    /// Starts (or joins) the transfer of `source.url`, deduplicated by `source.identity`.
    ///
    /// `completion` is called exactly once, never on the caller's stack and never under a lock,
    /// on the downloader's serial delivery queue: with the outcome of the transfer, with
    /// ``ImageStoreError/cancelled`` after ``cancel(_:)``, or with the remembered error of a URL
    /// that failed within the back-off. Completions run one at a time, in the order they became
    /// due; one that blocks (a disk write) delays the completions behind it, never the transfers:
    /// their bytes keep arriving, they end, and their slots go to the next transfers.
    ///
    /// A ticket that joins a transfer under way (or queued) gets that transfer's response: the
    /// ticket that made the transfer chose whether it revalidates and where its body goes, so a
    /// ticket that passed no `validity` may get ``DownloadResponse/Content/notModified``. The
    /// caller then holds the stored body, or, if it vanished meanwhile, downloads again without
    /// `validity` once this transfer has ended. A ticket that comes after a whole body arrived
    /// but before all its completions ran gets that body too: its first completion stores it, and
    /// a lookup that missed it on disk meanwhile would otherwise fetch it again.
    ///
    /// | `validity` | request | answer | completion |
    /// |---|---|---|---|
    /// | nil, or without validators | plain `GET` (continuing a kept partial body if there is one) | 2xx | ``DownloadResponse/Content/body(_:)`` |
    /// | with `entityTag` / `lastModified` | `If-None-Match` / `If-Modified-Since` | 304 | ``DownloadResponse/Content/notModified`` |
    /// | with validators | the same | 2xx | ``DownloadResponse/Content/body(_:)``, the new body |
    /// | nil | plain `GET` | 304 | ``ImageStoreError/httpStatus(_:code:)`` |
    ///
    /// A large body cut short (a lost connection, a timeout, or cancelled because its last
    /// ticket left) is kept when it can be resumed, and the next unconditional transfer of its
    /// identity asks only for the rest (`Range`, `If-Range`). If the server answers with the
    /// whole body (the picture changed), it is read from the start; if it refuses the range
    /// (416) or answers with another one, the partial body is dropped and the same transfer asks
    /// again for the whole body, which its tickets never notice. The transfer cut short counts
    /// as a failure for the back-off like any other; the first transfer after it resumes.
    ///
    /// - Parameters:
    ///   - source: The URL and the identity transfers are shared by.
    ///   - validity: A stored response to revalidate: its validators make the request
    ///     conditional. Defaults to nil.
    ///   - bodyDirectory: The folder the body's temporary file goes in (the disk cache's, so the
    ///     body is on the cache's volume); it must exist. The file is deleted before the
    ///     completion is called, whatever happens (the delivered `Data` maps it and stays
    ///     readable), unless it is kept as a partial body, which is deleted with the downloader
    ///     at the latest. Defaults to nil: the downloader's own folder.
    ///   - keepsAbandonedBody: Keeps the body (the disk cache writes it) if it arrives whole
    ///     after every ticket left: on Linux a cancelled task stops some milliseconds later, and
    ///     a body the server sent whole and nobody kept is sent whole again by the next lookup.
    ///     Called on the delivery queue; used only if this ticket makes the transfer. Defaults
    ///     to nil: such a body is dropped.
    ///   - priority: How soon the transfer should start, if it has to wait for a slot.
    ///   - completion: Gets the response, or the error.
    /// - Returns: The ticket that cancels this wait or changes its priority.
    func download(
        _ source: URLSource, revalidating validity: ResponseValidity? = nil, bodyDirectory: URL? = nil,
        temporaryBudget: DiskCacheTemporaryBudget? = nil, keepsAbandonedBody: AbandonedBodyKeeper? = nil,
        priority: ImageLoadPriority, completion: @escaping DownloadCompletion
    ) -> DownloadTicket {
        let now = DispatchTime.now().uptimeNanoseconds
        let (ticket, admission) = state.withLock {
            $0.admit(
                source, revalidating: validity, bodyDirectory: bodyDirectory, temporaryBudget: temporaryBudget,
                keepsAbandonedBody: keepsAbandonedBody, priority: priority, completion: completion, now: now)
        }
        switch admission {
        case .start(let starts):
            start(starts)
        case .failedRecently(let error):
            deliveryQueue.queue.async { completion(.failure(error)) }
        case .delivering(let response):
            // Behind the first delivery on the serial queue: the disk cache has the body by then.
            deliveryQueue.queue.async { completion(.success(response)) }
        }
        return ticket
    }

    /// Stops `ticket`'s wait: its completion gets ``ImageStoreError/cancelled`` at once (on the
    /// delivery queue). When the transfer's last ticket leaves, a queued transfer is
    /// dropped and never reaches the server; one under way is cancelled at the socket, and
    /// nothing it received is kept but a partial body worth resuming. A ticket that already got
    /// its outcome is ignored.
    ///
    /// Except the last ticket of a transfer whose headers are in and whose body is within
    /// ``PartialBody/minimumLength`` of its end: that transfer goes on and the ticket's completion
    /// gets its outcome, so the store's disk cache keeps the body instead of the next lookup
    /// sending it whole again. The same holds for a transfer whose response is due (out for
    /// about as long as the host's fastest responses take): it goes on until its headers show how
    /// much is to come, for a quarter of that latency at most, and is cut then if it is more.
    func cancel(_ ticket: DownloadTicket) {
        // A body within a resumable body's length of its end is finished rather than cut, and its
        // outcome delivered as if nothing happened (the store's caches keep it): what it still
        // needs is mostly on the wire already, and cut it would be sent whole again next time.
        if let task = state.withLock({ $0.schedule.soleRunningTask(of: ticket) }) {
            let taskIdentifier = task.task.taskIdentifier
            if sessionDelegate.isNearlyDone(taskIdentifier, within: PartialBody.minimumLength) { return }
            if let host = task.task.originalRequest?.url?.host, let latency = meter.fastestLatency(host: host),
                hold(ticket, of: taskIdentifier, latency: latency)
            {
                return
            }
        }
        cut(ticket)
    }

    /// Records `ticket` as held, and asks the session's delegate to hold its task until the
    /// response; undone if the delegate does not.
    private func hold(_ ticket: DownloadTicket, of taskIdentifier: Int, latency: Double) -> Bool {
        // Recorded first: the hold may end on the session's queue before this returns.
        state.withLock { $0.heldTickets[taskIdentifier] = ticket }
        if sessionDelegate.holdForResponse(taskIdentifier, latency: latency) { return true }
        state.withLock { $0.heldTickets[taskIdentifier] = nil }
        return false
    }

    /// A held task's response arrived, or did not in time: its ticket's cancellation goes
    /// through unless the body is nearly done, and then the ticket gets the outcome.
    func holdEnded(taskIdentifier: Int, isNearlyDone: Bool) {
        guard let ticket = state.withLock({ $0.heldTickets.removeValue(forKey: taskIdentifier) }), !isNearlyDone
        else { return }
        cut(ticket)
    }

    /// Removes `ticket`: its completion gets ``ImageStoreError/cancelled``, and its transfer,
    /// if no other ticket waits for it, is dropped from the queue or cancelled at the socket.
    private func cut(_ ticket: DownloadTicket) {
        guard let removal = state.withLock({ $0.remove(ticket) }) else { return }
        removal.abandonedTask?.cancel()
        start(removal.starts)
        deliveryQueue.queue.async { removal.completion(.failure(.cancelled)) }
    }

    /// Changes the priority `ticket` waits at: the store's load gained or lost waiters. Only a
    /// queued transfer's place in the queue changes.
    func setPriority(_ priority: ImageLoadPriority, of ticket: DownloadTicket) {
        state.withLock { $0.schedule.setPriority(priority, of: ticket) }
    }

    /// Remembers that the body of `identity` did not decode, as a failed transfer is remembered:
    /// lookups within the back-off get `error` at once instead of downloading it again.
    func rememberUndecodable(_ error: ImageStoreError, for identity: SourceIdentity) {
        let now = DispatchTime.now().uptimeNanoseconds
        state.withLock { $0.recentFailures.remember(error, for: identity, now: now) }
    }

    /// The counters since the downloader was created.
    var statistics: DownloadStatistics {
        state.withLock { $0.statistics }
    }

    /// The partial bodies kept for resuming, oldest first; for tests.
    var partialBodies: [PartialBody] {
        state.withLock { $0.partialBodies.bodies }
    }

    /// Waits until every completion due so far has run, and with it the time a new ticket gets a
    /// body just delivered rather than a transfer of its own; for tests.
    func waitForDeliveries() {
        deliveryQueue.queue.sync {}
    }

    /// The tasks cancelled under way whose body is kept if it still arrives whole; for tests.
    var abandonedTaskIdentifiers: [Int] {
        state.withLock { Array($0.abandonedTransfers.keys) }
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

    /// Ends a task's transfer and gives its slot to the next; or starts the transfer again when
    /// the server refused to continue a partial body. The outcome goes to every ticket of the
    /// transfer on the delivery queue, which does not keep the downloader alive.
    func transferEnded(taskIdentifier: Int, with ending: ResponseStream.Ending) {
        let now = DispatchTime.now().uptimeNanoseconds
        let ended = state.withLock { $0.end(taskIdentifier: taskIdentifier, with: ending, now: now) }
        for partialBody in ended.deletions { partialBody.delete() }
        start(ended.starts)
        guard case .finished(let outcome, _, _) = ending, !ended.completions.isEmpty || ended.abandonedBody != nil
        else { return }
        let completions = ended.completions
        let abandonedBody = ended.abandonedBody
        let deliveredBody = ended.deliveredBody
        deliveryQueue.queue.async { [weak self] in
            for completion in completions { completion(outcome) }
            if let abandonedBody { abandonedBody.keeper(abandonedBody.response) }
            guard let deliveredBody, let self else { return }
            self.state.withLock { $0.deliveryEnded(of: deliveredBody) }
        }
    }

    // MARK: Starting transfers

    /// Makes and resumes the tasks of transfers given a slot, outside the lock: the request
    /// modifier is the app's code.
    private func start(_ starts: [DownloadSchedule.Start]) {
        for start in starts {
            let identity = start.source.identity
            let partialBody = start.mayResume ? state.withLock { $0.partialBodies.take(identity) } : nil
            var request = URLRequest(
                url: start.source.url, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: requestTimeout)
            requestModifier?(&request)
            // After the modifier: the stream reads 304 and 206 by what these fields asked for.
            var ownFields: [String: String] = [:]
            ownFields["If-None-Match"] = start.validity?.entityTag
            ownFields["If-Modified-Since"] = start.validity?.lastModified
            ownFields["Range"] = partialBody?.rangeFieldValue
            ownFields["If-Range"] = partialBody?.validator
            RedirectedRequest.apply(ownFields, to: &request)
            let task = session.session.dataTask(with: request)
            let stream = ResponseStream(
                url: start.source.url, identity: identity, limit: maximumResponseSize,
                bodyDirectory: start.bodyDirectory ?? sessionDelegate.directory,
                temporaryBudget: start.temporaryBudget, isConditional: start.validity != nil,
                resuming: partialBody, requestTime: Date().timeIntervalSince1970)
            let followed = sessionDelegate.expect(SessionTask(task: task), stream, ownFields: ownFields)
            let attached = followed && state.withLock { $0.attach(SessionTask(task: task), for: start) }
            // A transfer that lost its tickets meanwhile never reaches the server; cancelling the
            // unstarted task lets the session forget it, and its stream hands the partial body
            // back.
            if attached { task.resume() } else { task.cancel() }
        }
    }
}

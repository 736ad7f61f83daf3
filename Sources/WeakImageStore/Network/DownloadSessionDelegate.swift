import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Receives the downloader's URLSession events: checks each response, streams its body to a
/// temporary file (in the transfer's body folder, else the downloader's own), and tells the
/// ``ImageDownloader`` how each task ended.
///
/// URLSession keeps its delegate strongly until the session is invalidated, so the delegate
/// keeps its downloader weakly: the downloader's `deinit` invalidates the session, which then
/// lets go of the delegate. The files are the delegate's, not the downloader's, because task
/// completions can arrive after the downloader is gone; when the session becomes invalid, every
/// file still open is deleted (and the folder, if the downloader made it). A partial body kept
/// for resuming is handed to the downloader, or deleted here if it is gone.
///
/// It also keeps each task to its pace (a ``TransferWatch``: a deadline and a minimum rate,
/// checked on a timer while tasks run), and builds the request that follows a redirect to another
/// origin (``RedirectedRequest``).
///
/// Every event, and every pace check, arrives on the session's serial queue (``queue``), one at
/// a time; the lock only guards the tables against ``expect(_:_:ownFields:)``, which runs on the
/// thread starting a transfer. Files are written outside the lock, by the event that took the
/// stream out.
final class DownloadSessionDelegate: NSObject, URLSessionDataDelegate, Sendable {
    /// What the delegate keeps of a task besides its stream.
    private struct FollowedTask: Sendable {
        let task: SessionTask
        var watch: TransferWatch
        /// The downloader's own header fields, which a redirect to another origin keeps.
        let ownFields: [String: String]
        /// Whether the task was cut off for its pace already.
        var isCutOff = false
        /// Whether its last waiter left while its response was due, and it goes on until the
        /// response shows how much body is still to come (``holdForResponse(_:latency:)``).
        var isHeldForResponse = false
    }

    private struct State: Sendable {
        var streams: [Int: ResponseStream] = [:]
        var tasks: [Int: FollowedTask] = [:]
        weak var owner: ImageDownloader?
        var isInvalidated = false
        var isPaceCheckScheduled = false

        /// Checks every task's pace at `time`.
        ///
        /// - Returns: The tasks too slow, newly, and why.
        mutating func tasksTooSlow(at time: UInt64) -> [(taskIdentifier: Int, task: SessionTask, reason: String)] {
            var slow: [(taskIdentifier: Int, task: SessionTask, reason: String)] = []
            for taskIdentifier in Array(tasks.keys) {
                guard var followed = tasks[taskIdentifier], !followed.isCutOff,
                    let reason = followed.watch.check(at: time)
                else { continue }
                followed.isCutOff = true
                tasks[taskIdentifier] = followed
                slow.append((taskIdentifier, followed.task, reason))
            }
            return slow
        }
    }

    /// Where bodies are written when their transfer names no folder of its own.
    let directory: URL
    /// The serial queue every session event arrives on: the delegate queue's underlying queue.
    let queue = SerialQueue(label: "WeakImageStore.ImageDownloader.session")
    private let removesDirectoryWhenInvalidated: Bool
    private let paceLimits: TransferWatch.Limits
    private let requestTimeout: TimeInterval
    private let requestModifier: (@Sendable (inout URLRequest) -> Void)?
    private let state = Lock(State())

    /// - Parameters:
    ///   - directory: Where bodies are written; created if missing.
    ///   - removesDirectoryWhenInvalidated: Whether the folder is the downloader's own, to be
    ///     deleted with whatever is in it when the session ends.
    ///   - paceLimits: The deadline and minimum rate every task is held to.
    ///   - requestTimeout: The timeout of a request made after a redirect to another origin.
    ///   - requestModifier: The app's request modifier, run again for such a request.
    init(
        directory: URL, removesDirectoryWhenInvalidated: Bool, paceLimits: TransferWatch.Limits,
        requestTimeout: TimeInterval, requestModifier: (@Sendable (inout URLRequest) -> Void)?
    ) {
        self.directory = directory
        self.removesDirectoryWhenInvalidated = removesDirectoryWhenInvalidated
        self.paceLimits = paceLimits
        self.requestTimeout = requestTimeout
        self.requestModifier = requestModifier
        super.init()
        // A failure here shows as a failed download naming the folder, when a file cannot be made.
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    /// Sets the downloader told about bytes and outcomes. Called once, by its `init`.
    func attach(_ owner: ImageDownloader) {
        state.withLock { $0.owner = owner }
    }

    /// Starts following `task`, whose response `stream` takes in, and holding it to its pace.
    /// Called before the task is resumed; events of tasks not followed are ignored.
    ///
    /// - Parameter ownFields: The header fields the downloader set on the request.
    /// - Returns: False if the session is invalid already: the stream was discarded (its partial
    ///   body's file deleted), and the task must not be resumed.
    @discardableResult
    func expect(_ task: SessionTask, _ stream: ResponseStream, ownFields: [String: String]) -> Bool {
        let taskIdentifier = task.task.taskIdentifier
        let watch = TransferWatch(limits: paceLimits, startTime: DispatchTime.now().uptimeNanoseconds)
        let (followed, startsPaceChecks) = state.withLock { state in
            guard !state.isInvalidated else { return (false, false) }
            state.streams[taskIdentifier] = stream
            state.tasks[taskIdentifier] = FollowedTask(task: task, watch: watch, ownFields: ownFields)
            defer { state.isPaceCheckScheduled = true }
            return (true, !state.isPaceCheckScheduled)
        }
        if !followed {
            var stream = stream
            stream.discard()
        }
        if startsPaceChecks { schedulePaceCheck() }
        return followed
    }

    // MARK: Pace

    private func schedulePaceCheck() {
        queue.queue.asyncAfter(deadline: .now() + paceLimits.checkInterval) { [weak self] in self?.checkPace() }
    }

    /// Cuts off the tasks that fell behind their pace, and checks again later while tasks run.
    private func checkPace() {
        let now = DispatchTime.now().uptimeNanoseconds
        let (slow, goesOn) = state.withLock { state in
            let slow = state.tasksTooSlow(at: now)
            state.isPaceCheckScheduled = !state.tasks.isEmpty && !state.isInvalidated
            return (slow, state.isPaceCheckScheduled)
        }
        for (taskIdentifier, task, reason) in slow {
            _ = update(taskIdentifier) { $0.cutOff(because: reason) }
            task.cancel()
        }
        if goesOn { schedulePaceCheck() }
    }

    // MARK: URLSessionTaskDelegate

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        // Judged by what the server said: Foundation on Linux turns `Location: file:///etc/passwd`
        // into a request for /etc/passwd on the same server.
        let target = ResponseStream.redirectTarget(of: response) ?? request.url
        let allowed = update(task.taskIdentifier) { $0.allowsRedirect(from: response.url, to: target) } ?? false
        let ownFields = state.withLock { $0.tasks[task.taskIdentifier]?.ownFields }
        // Where the server said, should Foundation have read it otherwise.
        var proposed = request
        if let target, target != request.url { proposed.url = target }
        let redirected =
            allowed
            ? RedirectedRequest.request(
                following: proposed, from: response.url, ownFields: ownFields ?? [:], timeout: requestTimeout,
                modifier: requestModifier)
            : nil
        // Answered before cancelling: Linux traps on a redirect answer for a task cancelled
        // meanwhile.
        completionHandler(redirected)
        if !allowed { task.cancel() }
    }

    /// Whether the task's headers are in and its body within `remaining` bytes of its end (see
    /// ``ResponseStream/isNearlyDone(within:)``); false while its stream is being written.
    func isNearlyDone(_ taskIdentifier: Int, within remaining: Int) -> Bool {
        state.withLock { $0.streams[taskIdentifier]?.isNearlyDone(within: remaining) ?? false }
    }

    /// Keeps a task whose last waiter is leaving going until its response arrives, or for a
    /// quarter of `latency` (5–100 ms) if it does not: only when the response is due, the
    /// request out for at least nine tenths of `latency` (how soon the host's responses come)
    /// and no headers in yet. Then the owner's ``ImageDownloader/holdEnded(taskIdentifier:isNearlyDone:)``
    /// decides whether it finishes.
    ///
    /// A response the server has written is on its way for a few milliseconds before the
    /// session reads its headers; cut then, a small body the server counted as sent whole is
    /// sent whole again by the next request.
    ///
    /// - Returns: Whether the task is held.
    func holdForResponse(_ taskIdentifier: Int, latency: Double) -> Bool {
        let now = DispatchTime.now().uptimeNanoseconds
        let isHeld = state.withLock { state in
            guard var followed = state.tasks[taskIdentifier], !followed.isHeldForResponse, !followed.isCutOff,
                let stream = state.streams[taskIdentifier], !stream.hasResponse,
                followed.watch.secondsSinceStart(at: now) >= latency * 0.9
            else { return false }
            followed.isHeldForResponse = true
            state.tasks[taskIdentifier] = followed
            return true
        }
        guard isHeld else { return false }
        let grace = min(0.1, max(0.005, latency / 4))
        queue.queue.asyncAfter(deadline: .now() + grace) { [weak self] in self?.endHold(of: taskIdentifier) }
        return true
    }

    /// Ends the hold of `taskIdentifier`, if it is held: tells the owner whether its body is
    /// nearly done.
    private func endHold(of taskIdentifier: Int) {
        let (wasHeld, owner) = state.withLock { state -> (Bool, ImageDownloader?) in
            guard var followed = state.tasks[taskIdentifier], followed.isHeldForResponse else { return (false, nil) }
            followed.isHeldForResponse = false
            state.tasks[taskIdentifier] = followed
            return (true, state.owner)
        }
        guard wasHeld, let owner else { return }
        owner.holdEnded(
            taskIdentifier: taskIdentifier,
            isNearlyDone: isNearlyDone(taskIdentifier, within: PartialBody.minimumLength))
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        let (stream, watch) = state.withLock { state in
            (
                state.streams.removeValue(forKey: task.taskIdentifier),
                state.tasks.removeValue(forKey: task.taskIdentifier)?.watch
            )
        }
        guard var stream else { return }
        let ending = stream.finish(transportError: error)
        guard let owner = state.withLock({ $0.owner }) else {
            // The downloader is gone: nobody will resume a partial body.
            if case .finished(_, let partial?, _) = ending { partial.delete() }
            return
        }
        if case .finished(.success, .none, 0) = ending, let host = task.originalRequest?.url?.host,
            let timing = watch?.timing(endingAt: DispatchTime.now().uptimeNanoseconds), timing.bytes > 0
        {
            owner.meter.recordTransfer(
                host: host, latency: timing.latency, bodySeconds: timing.bodySeconds, bytes: timing.bytes)
        }
        owner.transferEnded(taskIdentifier: task.taskIdentifier, with: ending)
    }

    // MARK: URLSessionDataDelegate

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        let now = DispatchTime.now().uptimeNanoseconds
        state.withLock { $0.tasks[dataTask.taskIdentifier]?.watch.responseArrived(at: now) }
        let accepted = update(dataTask.taskIdentifier) { $0.accepts(response) } ?? false
        // On Linux the `.cancel` disposition is ignored and the body keeps coming: cancelling the
        // task is what closes the connection there.
        if !accepted { dataTask.cancel() }
        completionHandler(accepted ? .allow : .cancel)
        endHold(of: dataTask.taskIdentifier)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        guard let goesOn = update(dataTask.taskIdentifier, { $0.append(data) }) else { return }
        let owner = state.withLock { state in
            state.tasks[dataTask.taskIdentifier]?.watch.bodyBytesArrived(data.count)
            return state.owner
        }
        owner?.bodyBytesReceived(data.count)
        if !goesOn { dataTask.cancel() }
    }

    // MARK: URLSessionDelegate

    func urlSession(_ session: URLSession, didBecomeInvalidWithError error: (any Error)?) {
        let streams = state.withLock { state in
            state.isInvalidated = true
            state.tasks = [:]
            defer { state.streams = [:] }
            return Array(state.streams.values)
        }
        for var stream in streams { stream.discard() }
        if removesDirectoryWhenInvalidated { try? FileManager.default.removeItem(at: directory) }
    }

    /// Takes the stream of `taskIdentifier` out of the table, lets `change` act on it (file I/O
    /// included) without the lock, and puts it back.
    ///
    /// - Returns: What `change` returned, or nil if the task is not followed, or the session is
    ///   invalid (then no file may be made: nothing would delete it).
    private func update<Result>(_ taskIdentifier: Int, _ change: (inout ResponseStream) -> Result) -> Result? {
        guard var stream = state.withLock({ $0.isInvalidated ? nil : $0.streams.removeValue(forKey: taskIdentifier) })
        else { return nil }
        let result = change(&stream)
        let late = state.withLock { state in
            guard !state.isInvalidated else { return true }
            state.streams[taskIdentifier] = stream
            return false
        }
        if late { stream.discard() }
        return result
    }
}

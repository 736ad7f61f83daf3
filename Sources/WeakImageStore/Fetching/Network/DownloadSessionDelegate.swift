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
/// Every event arrives on the session's serial delegate queue (``queue``), one at a time; the lock only
/// guards the table against ``expect(taskIdentifier:_:)``, which runs on the thread starting a
/// transfer. Files are written outside the lock, by the event that took the stream out.
final class DownloadSessionDelegate: NSObject, URLSessionDataDelegate, Sendable {
    private struct State: Sendable {
        var streams: [Int: ResponseStream] = [:]
        weak var owner: ImageDownloader?
        var isInvalidated = false
    }

    /// Where bodies are written when their transfer names no folder of its own.
    let directory: URL
    /// The serial queue every session event arrives on: the delegate queue's underlying queue.
    let queue = DispatchQueue(label: "WeakImageStore.ImageDownloader.session")
    private let removesDirectoryWhenInvalidated: Bool
    private let state = Lock(State())

    /// - Parameters:
    ///   - directory: Where bodies are written; created if missing.
    ///   - removesDirectoryWhenInvalidated: Whether the folder is the downloader's own, to be
    ///     deleted with whatever is in it when the session ends.
    init(directory: URL, removesDirectoryWhenInvalidated: Bool) {
        self.directory = directory
        self.removesDirectoryWhenInvalidated = removesDirectoryWhenInvalidated
        super.init()
        // A failure here shows as a failed download naming the folder, when a file cannot be made.
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
    }

    /// Sets the downloader told about bytes and outcomes. Called once, by its `init`.
    func attach(_ owner: ImageDownloader) {
        state.withLock { $0.owner = owner }
    }

    /// Starts following the task `taskIdentifier`, whose response `stream` takes in. Called
    /// before the task is resumed; events of tasks not followed are ignored.
    ///
    /// - Returns: False if the session is invalid already: the stream was discarded (its partial
    ///   body's file deleted), and the task must not be resumed.
    @discardableResult
    func expect(taskIdentifier: Int, _ stream: ResponseStream) -> Bool {
        let followed = state.withLock { state in
            guard !state.isInvalidated else { return false }
            state.streams[taskIdentifier] = stream
            return true
        }
        if !followed {
            var stream = stream
            stream.discard()
        }
        return followed
    }

    // MARK: URLSessionTaskDelegate

    func urlSession(
        _ session: URLSession, task: URLSessionTask, willPerformHTTPRedirection response: HTTPURLResponse,
        newRequest request: URLRequest, completionHandler: @escaping @Sendable (URLRequest?) -> Void
    ) {
        let allowed = update(task.taskIdentifier) { $0.allowsRedirect(from: response.url, to: request.url) } ?? false
        // Answered before cancelling: Linux traps on a redirect answer for a task cancelled
        // meanwhile.
        completionHandler(allowed ? request : nil)
        if !allowed { task.cancel() }
    }

    func urlSession(_ session: URLSession, task: URLSessionTask, didCompleteWithError error: (any Error)?) {
        guard var stream = state.withLock({ $0.streams.removeValue(forKey: task.taskIdentifier) }) else { return }
        let ending = stream.finish(transportError: error)
        guard let owner = state.withLock({ $0.owner }) else {
            // The downloader is gone: nobody will resume a partial body.
            if case .finished(_, let partial?, _) = ending { partial.delete() }
            return
        }
        owner.transferEnded(taskIdentifier: task.taskIdentifier, with: ending)
    }

    // MARK: URLSessionDataDelegate

    func urlSession(
        _ session: URLSession, dataTask: URLSessionDataTask, didReceive response: URLResponse,
        completionHandler: @escaping @Sendable (URLSession.ResponseDisposition) -> Void
    ) {
        let accepted =
            update(dataTask.taskIdentifier) { $0.accepts(response) } ?? false
        // On Linux the `.cancel` disposition is ignored and the body keeps coming: cancelling the
        // task is what closes the connection there.
        if !accepted { dataTask.cancel() }
        completionHandler(accepted ? .allow : .cancel)
    }

    func urlSession(_ session: URLSession, dataTask: URLSessionDataTask, didReceive data: Data) {
        guard let goesOn = update(dataTask.taskIdentifier, { $0.append(data) }) else { return }
        state.withLock { $0.owner }?.bodyBytesReceived(data.count)
        if !goesOn { dataTask.cancel() }
    }

    // MARK: URLSessionDelegate

    func urlSession(_ session: URLSession, didBecomeInvalidWithError error: (any Error)?) {
        let streams = state.withLock { state in
            state.isInvalidated = true
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

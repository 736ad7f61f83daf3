import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

// URLSession, its tasks and dispatch queues are thread-safe: Apple documents calling them from
// any thread, and newer SDKs mark them `Sendable`. The macOS 12 SDK the library also builds
// against does not, so these holders say it for them. Nothing else is kept in them.

/// The downloader's session, shared by whichever thread starts a transfer.
struct SharedSession: @unchecked Sendable {
    let session: URLSession
}

/// A running transfer's task, kept in locked state and cancelled from whichever thread lets go of
/// the transfer's last ticket.
struct SessionTask: @unchecked Sendable {
    let task: URLSessionDataTask

    /// Closes the connection: the server sees the response abandoned, and the session's delegate
    /// gets the task's completion with `NSURLErrorCancelled`.
    func cancel() {
        task.cancel()
    }
}

/// A private serial dispatch queue the downloader owns, reached from whichever thread has work
/// for it.
struct SerialQueue: @unchecked Sendable {
    let queue: DispatchQueue

    /// A new serial queue; libdispatch drains it with threads of its own, not the global pool's.
    init(label: String) {
        queue = DispatchQueue(label: label)
    }
}

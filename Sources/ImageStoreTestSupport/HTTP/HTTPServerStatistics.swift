/// What the loopback server has seen and done since it started (or since
/// ``LoopbackHTTPServer/resetStatistics()``): a snapshot, for tests to assert on and for the
/// benchmark to print.
///
/// Targets are the path and query as the client sent them (`/photo.jpg?w=2`).
///
/// A request is counted when it arrives, bytes as they go out, and a response when its last
/// byte goes out, before the client can see any of them: once a client has a response, the
/// counters include it. An abort is counted when the server notices it, after the client
/// closed: wait for it with ``LoopbackHTTPServer/waitForAbortedResponses(count:timeout:)``.
public struct HTTPServerStatistics: Sendable, Equatable {
    /// Requests per target, then per method.
    public internal(set) var requestsByTarget: [String: [String: Int]] = [:]
    /// Requests carrying `If-None-Match` or `If-Modified-Since`.
    public internal(set) var conditionalRequests = 0
    /// 304 answers.
    public internal(set) var notModifiedResponses = 0
    /// Requests carrying `Range`.
    public internal(set) var rangeRequests = 0
    /// 206 answers.
    public internal(set) var partialContentResponses = 0
    /// Body bytes the connections accepted, all targets.
    public internal(set) var bodyBytesSent = 0
    /// Body bytes the connections accepted, per target.
    public internal(set) var bodyBytesSentByTarget: [String: Int] = [:]
    /// Connections accepted.
    public internal(set) var connectionsOpened = 0
    /// Connections open now.
    public internal(set) var openConnections = 0
    /// The most connections open at once.
    public internal(set) var mostConcurrentConnections = 0
    /// Responses sent to their end.
    public internal(set) var completedResponses = 0
    /// Responses cut short where the script says (``HTTPScriptedResponse/closeAfterBodyBytes``).
    public internal(set) var responsesCutShortByScript = 0
    /// Responses the client abandoned: it closed the connection before the body's end (or while
    /// the server waited to answer). This is how a test sees cancellation reach the socket.
    public internal(set) var responsesAbortedByClient = 0
    /// ``responsesAbortedByClient`` per target.
    public internal(set) var abortedResponsesByTarget: [String: Int] = [:]

    /// Requests for `target`, of `method` or of any method.
    ///
    /// - Parameters:
    ///   - target: Path and query as sent.
    ///   - method: `"GET"`, `"HEAD"`, …; `nil` counts every method. Defaults to `nil`.
    public func requests(to target: String, method: String? = nil) -> Int {
        guard let byMethod = requestsByTarget[target] else { return 0 }
        guard let method else { return byMethod.values.reduce(0, +) }
        return byMethod[method] ?? 0
    }

    /// Requests of every target and method.
    public var totalRequests: Int {
        requestsByTarget.values.reduce(0) { $0 + $1.values.reduce(0, +) }
    }
}

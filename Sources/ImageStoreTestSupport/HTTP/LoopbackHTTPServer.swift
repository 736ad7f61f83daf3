import Foundation

/// An HTTP/1.1 server on 127.0.0.1 (or another loopback address, for a second origin) for tests
/// and benchmarks: each path answers as scripted,
/// faults included, and the server counts what it saw.
///
/// POSIX sockets, a port the system picks, keep-alive, one thread per connection,
/// `TCP_NODELAY` and one write per response. Every wait has a deadline, and ``stop()`` ends
/// every thread and closes every descriptor, so tests leak nothing into each other.
///
/// ```swift
/// let server = try LoopbackHTTPServer()
/// defer { server.stop() }
/// server.respond(to: "/a.png", with: .ok(pngBytes, contentType: "image/png"))
/// // … fetch server.url("/a.png") …
/// XCTAssertTrue(server.waitUntil { $0.requests(to: "/a.png") == 1 })
/// ```
public final class LoopbackHTTPServer: Sendable {
    /// Limits and timeouts.
    public struct Configuration: Sendable {
        /// Seconds a connection may sit idle between requests. Defaults to 30.
        public var idleConnectionTimeout: Double = 30
        /// Seconds a started request may take to arrive in full. Defaults to 10.
        public var requestTimeout: Double = 10
        /// Seconds a write may wait for a client that does not read. Defaults to 10.
        public var writeTimeout: Double = 10
        /// Seconds a response waits for its gate before the connection closes unanswered.
        /// Defaults to 10.
        public var maximumGateWait: Double = 10
        /// Seconds ``LoopbackHTTPServer/stop()`` waits for the threads to end. Defaults to 5.
        public var stopTimeout: Double = 5
        /// The most bytes of request line and header fields; larger requests get 431. Defaults
        /// to 16 KiB.
        public var maximumHeaderBytes = 16_384
        /// The most bytes of request body; larger ones get 413. Defaults to 1 MiB.
        public var maximumRequestBodyBytes = 1_048_576
        /// How many of the latest requests ``LoopbackHTTPServer/receivedRequests`` keeps.
        /// Defaults to 10 000.
        public var requestLogLimit = 10_000

        /// The defaults listed above.
        public init() {}
    }

    /// The port the server listens on.
    public let port: UInt16
    /// The IPv4 address the server listens on.
    public let address: String
    let core: HTTPServerCore

    /// Starts a server on a loopback address and a free port.
    ///
    /// - Parameters:
    ///   - address: Defaults to `127.0.0.1`. Another address of `127.0.0.0/8` (`127.0.0.2`) is
    ///     another origin for the same port numbers; Linux answers on all of them, macOS only on
    ///     those configured (binding then throws).
    ///   - link: Latency and bandwidth for every connection. Defaults to ``HTTPLink/unlimited``.
    ///   - configuration: Limits and timeouts. Defaults to ``Configuration/init()``.
    /// - Throws: ``HTTPServerError`` if the address is not IPv4, or the socket or pipe cannot be
    ///   set up.
    public init(
        address: String = "127.0.0.1", link: HTTPLink = .unlimited, configuration: Configuration = Configuration()
    ) throws(HTTPServerError) {
        core = try HTTPServerCore(configuration: configuration, link: link, address: address)
        port = core.port
        self.address = address
        HTTPListener.start(core)
    }

    deinit {
        _ = core.stop(timeout: core.configuration.stopTimeout)
    }

    /// `http://<address>:<port><target>`.
    ///
    /// - Parameter target: A path, with a query if wanted: `"/a.png?w=2"`.
    public func url(_ target: String) -> URL {
        URL(string: "http://\(address):\(port)\(target)")!  // Proven: a valid authority and a target from the test.
    }

    /// Scripts the answer to every request for `target`.
    ///
    /// A request is matched by its target (path and query) first, then by its path alone;
    /// unscripted targets get 404.
    public func respond(to target: String, with response: HTTPScriptedResponse) {
        respond(to: target, withSequence: [response])
    }

    /// Scripts successive answers for `target`: the first request gets the first, and so on; the
    /// last repeats. A redirect loop is two targets redirecting to each other.
    ///
    /// - Parameter responses: At least one.
    public func respond(to target: String, withSequence responses: [HTTPScriptedResponse]) {
        precondition(!responses.isEmpty, "a route needs at least one response")
        core.state.withLock { $0.routes[target] = HTTPServerCore.Route(responses: responses) }
    }

    /// The link every response goes over from now on (responses under way keep theirs).
    public var link: HTTPLink {
        get { core.state.withLock { $0.link } }
        set { core.state.withLock { $0.link = newValue } }
    }

    /// Lets the responses held at `gate` go, and every later one.
    public func openGate(_ gate: String) {
        core.state.withLock { _ = $0.openGates.insert(gate) }
    }

    /// Holds responses at `gate` again.
    public func closeGate(_ gate: String) {
        core.state.withLock { _ = $0.openGates.remove(gate) }
    }

    /// The counters now.
    public var statistics: HTTPServerStatistics {
        core.state.withLock { $0.statistics }
    }

    /// The latest requests, oldest first (up to ``Configuration/requestLogLimit``).
    public var receivedRequests: [HTTPRequest] {
        core.state.withLock { $0.receivedRequests }
    }

    /// Zeroes the counters (except the open connections) and forgets the received requests.
    public func resetStatistics() {
        core.state.withLock { state in
            let open = state.statistics.openConnections
            state.statistics = HTTPServerStatistics()
            state.statistics.openConnections = open
            state.statistics.mostConcurrentConnections = open
            state.receivedRequests = []
        }
    }

    /// Stops accepting, ends every connection (a response under way is cut off), and waits for
    /// every thread to end. Calling it again does nothing more.
    ///
    /// - Returns: Whether every thread ended within ``Configuration/stopTimeout``.
    @discardableResult
    public func stop() -> Bool {
        core.stop(timeout: core.configuration.stopTimeout)
    }
}

import Foundation

/// What the public server, its accept loop and its connection threads share: the scripts, the
/// link, the counters, the running threads, and the wake-up pipe that ends every wait at once.
///
/// Threads hold this, not the ``LoopbackHTTPServer``, so dropping the server stops them.
final class HTTPServerCore: Sendable {
    struct Route {
        var responses: [HTTPScriptedResponse]
        /// Requests answered so far: the next one gets `responses[min(served, count - 1)]`.
        var served = 0
    }

    struct State {
        var routes: [String: Route] = [:]
        var link: HTTPLink
        var statistics = HTTPServerStatistics()
        var receivedRequests: [HTTPRequest] = []
        var openGates: Set<String> = []
        /// Threads started and not yet ended: the accept loop and one per connection.
        var runningThreads = 0
        var isStopping = false
        var isStopped = false
    }

    /// How a response ended.
    enum ResponseOutcome {
        case completed
        case cutShortByScript
        case abortedByClient
    }

    let configuration: LoopbackHTTPServer.Configuration
    let listener: Int32
    let port: UInt16
    let wakeUpReadEnd: Int32
    private let wakeUpWriteEnd: Int32
    let state: ConditionLock<State>

    init(configuration: LoopbackHTTPServer.Configuration, link: HTTPLink, address: String) throws(HTTPServerError) {
        self.configuration = configuration
        let wakeUp = try LoopbackSocket.makeWakeUpPipe()
        do {
            (listener, port) = try LoopbackSocket.makeListener(address: address)
        } catch {
            LoopbackSocket.closeDescriptor(wakeUp.readEnd)
            LoopbackSocket.closeDescriptor(wakeUp.writeEnd)
            throw error
        }
        wakeUpReadEnd = wakeUp.readEnd
        wakeUpWriteEnd = wakeUp.writeEnd
        state = ConditionLock(State(link: link))
    }

    // MARK: Threads

    /// Counts a thread about to start, unless the server is stopping.
    ///
    /// - Returns: Whether to start it.
    func threadWillStart() -> Bool {
        state.withLock { state in
            guard !state.isStopping else { return false }
            state.runningThreads += 1
            return true
        }
    }

    func threadDidEnd() {
        state.withLock { $0.runningThreads -= 1 }
    }

    /// Stops accepting, wakes every waiting thread, and waits up to `timeout` seconds for all to
    /// end before closing the listener and the pipe.
    ///
    /// - Returns: Whether every thread ended in time (if not, the descriptors are left open
    ///   rather than closed under a running thread).
    func stop(timeout: Double) -> Bool {
        let isFirstStop = state.withLock { state in
            defer { state.isStopping = true }
            return !state.isStopping
        }
        if isFirstStop {
            var byte: UInt8 = 1
            _ = write(wakeUpWriteEnd, &byte, 1)
        }
        let ended = state.wait(until: Date(timeIntervalSinceNow: timeout)) { $0.runningThreads == 0 }
        guard ended else { return false }
        let shouldClose = state.withLock { state in
            defer { state.isStopped = true }
            return !state.isStopped
        }
        if shouldClose {
            LoopbackSocket.closeDescriptor(listener)
            LoopbackSocket.closeDescriptor(wakeUpReadEnd)
            LoopbackSocket.closeDescriptor(wakeUpWriteEnd)
        }
        return true
    }

    // MARK: Connections

    /// Counts a new connection.
    ///
    /// - Returns: The connection's number (1 for the first).
    func connectionDidOpen() -> Int {
        state.withLock { state in
            state.statistics.connectionsOpened += 1
            state.statistics.openConnections += 1
            state.statistics.mostConcurrentConnections = max(
                state.statistics.mostConcurrentConnections, state.statistics.openConnections)
            return state.statistics.connectionsOpened
        }
    }

    func connectionDidClose() {
        state.withLock { $0.statistics.openConnections -= 1 }
    }

    // MARK: Requests and responses

    /// Counts `request` and picks its script: the target's, else its path's, else a 404.
    ///
    /// - Returns: The script and the link to send it over.
    func script(for request: HTTPRequest) -> (HTTPScriptedResponse, HTTPLink) {
        state.withLock { state in
            state.statistics.requestsByTarget[request.target, default: [:]][request.method, default: 0] += 1
            if request.value(forHeader: "If-None-Match") != nil || request.value(forHeader: "If-Modified-Since") != nil
            {
                state.statistics.conditionalRequests += 1
            }
            if request.value(forHeader: "Range") != nil { state.statistics.rangeRequests += 1 }
            state.receivedRequests.append(request)
            if state.receivedRequests.count > configuration.requestLogLimit {
                state.receivedRequests.removeFirst(state.receivedRequests.count - configuration.requestLogLimit)
            }
            let key = state.routes[request.target] != nil ? request.target : request.path
            guard var route = state.routes[key] else { return (.status(404), state.link) }
            let script = route.responses[min(route.served, route.responses.count - 1)]
            route.served += 1
            state.routes[key] = route
            return (script, state.link)
        }
    }

    /// Sends what the socket takes now of `bytes`, and counts it in the same critical section:
    /// a client that has bytes always finds them counted, and one that has a whole response finds
    /// it answered, so tests need not wait for the counters. The socket is non-blocking, so the
    /// lock is held for a copy into the kernel, never for a wait.
    ///
    /// - Parameters:
    ///   - bodyBytes: Which of `bytes` are body (the rest is the status line and headers).
    ///   - target: The request's target; `nil` for refusals, which are not counted.
    ///   - ending: How the response ends if all of `bytes` goes out; `nil` if more follows.
    func send(
        _ bytes: UnsafeRawBufferPointer, on descriptor: Int32, bodyBytes: Range<Int>, target: String?,
        ending: (outcome: ResponseOutcome, status: Int)?
    ) -> LoopbackSocket.Sent {
        state.withLock { state in
            let sent = LoopbackSocket.sendBytes(descriptor, bytes)
            guard case .bytes(let count) = sent, let target else { return sent }
            let bodyCount = max(0, min(count, bodyBytes.upperBound) - bodyBytes.lowerBound)
            state.statistics.bodyBytesSent += bodyCount
            state.statistics.bodyBytesSentByTarget[target, default: 0] += bodyCount
            if count == bytes.count, let ending {
                state.record(ending.outcome, status: ending.status, target: target)
            }
            return sent
        }
    }

    /// Counts a response that ended without its last byte going out.
    func responseDidEnd(_ outcome: ResponseOutcome, status: Int, target: String) {
        state.withLock { $0.record(outcome, status: status, target: target) }
    }

    func isGateOpen(_ gate: String) -> Bool {
        state.withLock { $0.openGates.contains(gate) }
    }
}

extension HTTPServerCore.State {
    fileprivate mutating func record(_ outcome: HTTPServerCore.ResponseOutcome, status: Int, target: String) {
        switch outcome {
        case .completed: statistics.completedResponses += 1
        case .cutShortByScript: statistics.responsesCutShortByScript += 1
        case .abortedByClient:
            statistics.responsesAbortedByClient += 1
            statistics.abortedResponsesByTarget[target, default: 0] += 1
        }
        if status == 304 { statistics.notModifiedResponses += 1 }
        if status == 206 { statistics.partialContentResponses += 1 }
    }
}

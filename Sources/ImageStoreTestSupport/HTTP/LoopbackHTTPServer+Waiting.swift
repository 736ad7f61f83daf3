import Foundation

extension LoopbackHTTPServer {
    /// Waits until the counters satisfy `condition`, instead of sleeping for a guessed time.
    ///
    /// ```swift
    /// XCTAssertTrue(server.waitUntil { $0.responsesAbortedByClient == 1 })
    /// ```
    ///
    /// - Parameters:
    ///   - timeout: Seconds. Defaults to 5.
    ///   - condition: Runs under the server's lock, on every change: keep it short and do not
    ///     call the server from it.
    /// - Returns: Whether `condition` held before the timeout.
    @discardableResult
    public func waitUntil(timeout: Double = 5, _ condition: (HTTPServerStatistics) -> Bool) -> Bool {
        core.state.wait(until: Date(timeIntervalSinceNow: timeout)) { condition($0.statistics) }
    }

    /// Waits until `count` requests for `target` (any method) have arrived.
    ///
    /// - Parameter timeout: Seconds. Defaults to 5.
    /// - Returns: Whether they arrived in time.
    @discardableResult
    public func waitForRequests(to target: String, count: Int, timeout: Double = 5) -> Bool {
        waitUntil(timeout: timeout) { $0.requests(to: target) >= count }
    }

    /// Waits until clients have abandoned `count` responses (closed the connection before the
    /// body's end).
    ///
    /// - Parameter timeout: Seconds. Defaults to 5.
    /// - Returns: Whether they had in time.
    @discardableResult
    public func waitForAbortedResponses(count: Int, timeout: Double = 5) -> Bool {
        waitUntil(timeout: timeout) { $0.responsesAbortedByClient >= count }
    }
}

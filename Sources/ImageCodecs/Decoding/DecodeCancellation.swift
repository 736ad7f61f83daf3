import Dispatch

/// Lets a running load stop part-way once nobody waits for its image any more.
///
/// A loading thread owns one per load it runs. When the load's last waiter leaves (a cell
/// scrolled away and cancelled its task), the store *requests* a stop; the built-in decoders poll
/// ``current`` between rows of MCUs (JPEG) and between deflate blocks or inflated chunks (PNG)
/// and throw at the first poll that sees the request, which then becomes *stopped* for good. A
/// waiter that joins before that withdraws the request and the load goes on; one that joins
/// after it finds the load stopped, and the store queues the load again for it.
///
/// Without this, a flung list decodes every photo whose cell appeared, to the end, for nobody.
///
/// A running load can also be *paused* at its next poll, and resumed: the store pauses a
/// prefetch while work for the screen runs beside it, so the screen's decode has the processor
/// without the prefetch losing what it did. A stop request ends a pause.
package final class DecodeCancellation: Sendable {
    private enum Phase {
        case running
        case stopRequested
        case stopped
    }

    private struct State {
        var phase = Phase.running
        /// Set while paused: the poll waits on it.
        var pause: PauseGate?
    }

    /// What a paused poll waits on. `@unchecked` because older SDKs do not mark
    /// `DispatchSemaphore` `Sendable`; a semaphore is thread-safe.
    private final class PauseGate: @unchecked Sendable {
        let semaphore = DispatchSemaphore(value: 0)
    }

    /// The cancellation of the load whose decode runs on this thread, bound by the store around
    /// the decoder's call; nil outside a store's load (a decoder called directly never stops).
    ///
    /// A `TaskLocal` declared as a constant rather than through `@TaskLocal`, which older SDKs
    /// see as a property wrapper on a mutable static.
    package static let current = TaskLocal<DecodeCancellation?>(wrappedValue: nil)

    private let state = Lock(State())
    /// Told when a stop is requested: set while the load waits for admission to decode (see
    /// ``DecodeAdmission``), so the wait ends at once rather than when the decode's turn comes.
    private let stopRequestHandler = Lock<(@Sendable () -> Void)?>(nil)

    package init() {}

    /// Asks the load to stop at its next poll; no effect once stopped.
    package func requestStop() {
        let pause = state.withLock { state in
            if state.phase == .running { state.phase = .stopRequested }
            defer { state.pause = nil }
            return state.pause
        }
        pause?.semaphore.signal()
        // After unlocking: the handler takes the admission's lock, under which polls run.
        stopRequestHandler.withLock { $0 }?()
    }

    /// Sets (or, with nil, removes) what ``requestStop()`` calls after requesting the stop.
    package func setStopRequestHandler(_ handler: (@Sendable () -> Void)?) {
        stopRequestHandler.withLock { $0 = handler }
    }

    /// Withdraws a stop request that no poll has seen yet.
    ///
    /// - Returns: `false` if the load has already stopped: its new waiter needs a new load.
    @discardableResult
    package func withdrawStopRequest() -> Bool {
        state.withLock { state in
            if state.phase == .stopRequested { state.phase = .running }
            return state.phase != .stopped
        }
    }

    /// Asks the load to wait at its next poll until ``resume()`` (or a stop request).
    package func pause() {
        state.withLock { state in
            if state.phase == .running && state.pause == nil { state.pause = PauseGate() }
        }
    }

    /// Whether a pause was asked for and not yet resumed.
    package var isPaused: Bool {
        state.withLock { $0.pause != nil }
    }

    /// Lets a paused load go on.
    package func resume() {
        let pause = state.withLock { state in
            defer { state.pause = nil }
            return state.pause
        }
        pause?.semaphore.signal()
    }

    /// The poll: whether the load must stop now, after waiting out a pause. A stop request
    /// seen here is final.
    package func shouldStop() -> Bool {
        while true {
            let (stops, pause) = state.withLock { state in
                if state.phase == .stopRequested { state.phase = .stopped }
                return (state.phase == .stopped, state.pause)
            }
            guard !stops, let pause else { return stops }
            pause.semaphore.wait()
        }
    }

    /// The poll for code that must not wait (under a lock of its own): whether the load must
    /// stop now, ignoring a pause. A stop request seen here is final.
    package func shouldStopWithoutPausing() -> Bool {
        state.withLock { state in
            if state.phase == .stopRequested { state.phase = .stopped }
            return state.phase == .stopped
        }
    }

    /// Whether a poll has stopped the load, so its decoder's error means "stopped", not a
    /// broken file.
    package var hasStopped: Bool {
        state.withLock { $0.phase == .stopped }
    }
}

#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// Admits decodes against a shared byte cap, so that large decodes running at once wait for
/// each other instead of multiplying: the bytes admitted (each decode's peak, from its
/// decoder's ``ImageDecoding/decodingPeakBytes(of:maxPixelSize:)``) stay within ``cap``.
///
/// - First come, first served: a decode waits while any decode that asked before it waits, so a
///   large one is never starved by a stream of small ones.
/// - A decode larger than the cap is admitted when nothing else is, and runs alone: a decode is
///   never refused here (its decoder's own limit does that), and waiting can never deadlock, as
///   long as no thread asks while holding an admission, which the store never does.
/// - A load whose waiters all left stops waiting at once: its ``DecodeCancellation`` wakes the
///   wait when a stop is requested.
///
/// Blocking with a condition variable rather than `DispatchSemaphore`, which counts decodes,
/// not bytes, and which Darwin's Dispatch does not mark `Sendable`.
final class DecodeAdmission: @unchecked Sendable {
    /// What the admission has seen, for tests and the benchmark.
    struct Statistics: Equatable {
        /// The bytes admitted now.
        var admittedBytes = 0
        /// The most bytes admitted at once so far.
        var peakAdmittedBytes = 0
        /// The decodes admitted now.
        var admittedCount = 0
        /// The decodes waiting now.
        var waitingCount = 0
        /// The decodes that had to wait before they were admitted.
        var waits = 0
        /// The decodes that stopped while waiting because nobody needed them any more.
        var abandoned = 0
    }

    private struct State {
        let cap: Int
        var statistics = Statistics()
        /// The decodes waiting, in the order they asked: ticket and bytes.
        var queue: [(ticket: Int, bytes: Int)] = []
        var nextTicket = 0

        /// Queues a decode of `bytes`; returns its ticket.
        mutating func enqueue(_ bytes: Int) -> Int {
            defer { nextTicket += 1 }
            queue.append((nextTicket, bytes))
            return nextTicket
        }

        /// Admits `ticket` if it is first in line and fits (or nothing else is admitted).
        mutating func enter(_ ticket: Int) -> Bool {
            guard let first = queue.first, first.ticket == ticket else { return false }
            let (total, overflow) = statistics.admittedBytes.addingReportingOverflow(first.bytes)
            guard statistics.admittedCount == 0 || (!overflow && total <= cap) else { return false }
            queue.removeFirst()
            statistics.admittedBytes = total
            statistics.admittedCount += 1
            statistics.peakAdmittedBytes = max(statistics.peakAdmittedBytes, total)
            return true
        }

        /// Takes `ticket` out of the line, unadmitted.
        mutating func leave(_ ticket: Int) {
            queue.removeAll { $0.ticket == ticket }
            statistics.abandoned += 1
        }

        /// Ends an admitted decode of `bytes`.
        mutating func release(_ bytes: Int) {
            statistics.admittedBytes -= bytes
            statistics.admittedCount -= 1
        }
    }

    /// The most bytes admitted at once, unless a single decode is larger.
    let cap: Int

    private let mutex = UnsafeMutablePointer<pthread_mutex_t>.allocate(capacity: 1)
    private let condition = UnsafeMutablePointer<pthread_cond_t>.allocate(capacity: 1)
    // Guarded by `mutex`; behind a pointer so no dynamic exclusivity check is involved.
    private let state = UnsafeMutablePointer<State>.allocate(capacity: 1)

    /// Creates an admission with a cap.
    ///
    /// - Parameter cap: The most bytes admitted at once; at least 1.
    init(cap: Int) {
        precondition(cap >= 1, "the decode admission cap must be at least 1")
        self.cap = cap
        mutex.initialize(to: pthread_mutex_t())
        condition.initialize(to: pthread_cond_t())
        state.initialize(to: State(cap: cap))
        pthread_mutex_init(mutex, nil)
        pthread_cond_init(condition, nil)
    }

    deinit {
        pthread_cond_destroy(condition)
        pthread_mutex_destroy(mutex)
        state.deinitialize(count: 1)
        condition.deallocate()
        mutex.deallocate()
        state.deallocate()
    }

    /// Blocks until a decode of `bytes` may run, or until its load stops.
    ///
    /// - Parameters:
    ///   - bytes: The decode's peak; at least 0.
    ///   - cancellation: The load's, whose stop request ends the wait; nil for a synchronous
    ///     caller, who always wants the image.
    ///   - beforeWaiting: Called once, outside the lock, before the first wait: a paused decode
    ///     holding admitted bytes must go on, or this one could wait for it forever.
    /// - Returns: `true` once admitted (call ``release(_:)`` with the same bytes after the
    ///   decode); `false` if the load stopped first (nothing to release).
    func admit(_ bytes: Int, cancellation: DecodeCancellation?, beforeWaiting: (() -> Void)? = nil) -> Bool {
        cancellation?.setStopRequestHandler { [self] in wakeWaiters() }
        defer { cancellation?.setStopRequestHandler(nil) }
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        let ticket = state.pointee.enqueue(bytes)
        var waited = false
        var toldBeforeWaiting = beforeWaiting == nil
        while !state.pointee.enter(ticket) {
            if !toldBeforeWaiting {
                toldBeforeWaiting = true
                pthread_mutex_unlock(mutex)
                beforeWaiting?()
                pthread_mutex_lock(mutex)
                continue
            }
            // Never the pausing poll: a wait here holds the admission's lock.
            if let cancellation, cancellation.shouldStopWithoutPausing() {
                state.pointee.leave(ticket)
                // The line moved: the next decode may fit now.
                pthread_cond_broadcast(condition)
                return false
            }
            waited = true
            pthread_cond_wait(condition, mutex)
        }
        if waited { state.pointee.statistics.waits += 1 }
        // The next in line may fit beside this one.
        pthread_cond_broadcast(condition)
        return true
    }

    /// Ends an admitted decode, letting the next ones in.
    ///
    /// - Parameter bytes: What ``admit(_:cancellation:)`` admitted.
    func release(_ bytes: Int) {
        pthread_mutex_lock(mutex)
        state.pointee.release(bytes)
        pthread_cond_broadcast(condition)
        pthread_mutex_unlock(mutex)
    }

    /// What the admission has seen so far.
    var statistics: Statistics {
        pthread_mutex_lock(mutex)
        defer { pthread_mutex_unlock(mutex) }
        var statistics = state.pointee.statistics
        statistics.waitingCount = state.pointee.queue.count
        return statistics
    }

    /// Wakes every waiter to look again (a load's stop was requested).
    private func wakeWaiters() {
        pthread_mutex_lock(mutex)
        pthread_cond_broadcast(condition)
        pthread_mutex_unlock(mutex)
    }
}

import Dispatch

/// The store's own threads for loads: private serial dispatch queues, one per loading thread
/// running at once, reused when idle.
///
/// Never `DispatchQueue.global()`: on Linux the global queues share their workers (one per core)
/// with Swift's cooperative pool, so loads blocked there in a slow provider, a file read or a
/// decode hold back every `async` function of the app until they finish. A private serial queue
/// is drained by Dispatch's overcommitting threads, which are made as needed and leave the
/// cooperative pool alone. The store's state decides how many loading threads run, so at most
/// that many lanes are busy at once, plus one per lane between its last load and going idle.
///
/// `@unchecked` because older SDKs do not mark `DispatchQueue` `Sendable`; the queues are reached
/// only under the lock, and a queue is thread-safe.
final class LoadingLanes: @unchecked Sendable {
    private struct State {
        var queues: [DispatchQueue] = []
        /// Indices of the queues not running a loading thread.
        var idle: [Int] = []
    }

    private let label: String
    private let state = Lock(State())

    /// - Parameter label: The queues' label, as debuggers and crash reports show it.
    init(label: String) {
        self.label = label
    }

    /// Runs `work` on an idle lane, or on a new one if every lane is busy.
    func run(_ work: @escaping @Sendable () -> Void) {
        let (index, queue) = state.withLock { state in
            if let index = state.idle.popLast() { return (index, state.queues[index]) }
            state.queues.append(DispatchQueue(label: label, qos: .userInitiated))
            return (state.queues.count - 1, state.queues[state.queues.count - 1])
        }
        queue.async {
            work()
            self.state.withLock { $0.idle.append(index) }
        }
    }

    /// The lanes made so far that are idle; for tests.
    var idleCount: Int {
        state.withLock { $0.idle.count }
    }
}

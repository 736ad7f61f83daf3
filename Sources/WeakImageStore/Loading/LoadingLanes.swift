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
final class LoadingLanes: Sendable {
    private let label: String
    private let idle = Lock<[DispatchQueue]>([])

    /// - Parameter label: The queues' label, as debuggers and crash reports show it.
    init(label: String) {
        self.label = label
    }

    /// Runs `work` on an idle lane, or on a new one if every lane is busy.
    func run(_ work: @escaping @Sendable () -> Void) {
        let lane = idle.withLock { $0.popLast() } ?? DispatchQueue(label: label, qos: .userInitiated)
        lane.async {
            work()
            self.idle.withLock { $0.append(lane) }
        }
    }

    /// The lanes made so far that are idle; for tests.
    var idleCount: Int {
        idle.withLock { $0.count }
    }
}

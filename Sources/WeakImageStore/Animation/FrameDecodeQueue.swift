import Dispatch

/// Frame decodes waiting for a loading thread, the most urgent first: a frame a player is late
/// for before the frames it will want next.
///
/// At most `maximumConcurrentDecodes` run at once, each on a thread of the store's own (never the
/// caller's, never Swift's cooperative pool, which a decode would hold for milliseconds).
final class FrameDecodeQueue: Sendable {
    typealias JobID = Int

    private struct Job {
        let id: JobID
        let priority: ImageLoadPriority
        let work: @Sendable () -> Void
    }

    private struct State {
        var pending: [Job] = []
        var running = 0
        var lastID = 0
    }

    private let maximumConcurrentDecodes: Int
    private let lanes = LoadingLanes(label: "WeakImageStore.frames")
    private let state = Lock(State())

    init(maximumConcurrentDecodes: Int) {
        precondition(maximumConcurrentDecodes >= 1, "at least one decode must be able to run")
        self.maximumConcurrentDecodes = maximumConcurrentDecodes
    }

    /// Queues `work` at `priority`.
    ///
    /// - Returns: The job's id, for ``cancel(_:)``.
    @discardableResult
    func submit(priority: ImageLoadPriority, _ work: @escaping @Sendable () -> Void) -> JobID {
        let (id, startsThread) = state.withLock { state in
            state.lastID += 1
            state.pending.append(Job(id: state.lastID, priority: priority, work: work))
            guard state.running < maximumConcurrentDecodes else { return (state.lastID, false) }
            state.running += 1
            return (state.lastID, true)
        }
        if startsThread { lanes.run { self.drain() } }
        return id
    }

    /// Removes a job that has not started.
    ///
    /// - Returns: Whether it was still waiting (its work will then never run).
    func cancel(_ id: JobID) -> Bool {
        state.withLock { state in
            guard let index = state.pending.firstIndex(where: { $0.id == id }) else { return false }
            state.pending.remove(at: index)
            return true
        }
    }

    /// Runs jobs until none is left, the highest priority first, in order of submission within one.
    private func drain() {
        while let job = nextJob() { job.work() }
    }

    private func nextJob() -> Job? {
        state.withLock { state in
            guard let best = state.pending.indices.max(by: { state.pending[$0].priority < state.pending[$1].priority })
            else {
                state.running -= 1
                return nil
            }
            // `max(by:)` returns the last of equals; the first submitted goes first.
            let priority = state.pending[best].priority
            let first = state.pending.firstIndex { $0.priority == priority } ?? best
            return state.pending.remove(at: first)
        }
    }
}

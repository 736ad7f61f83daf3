/// A task waiting for a frame decoded on a loading thread: resumed exactly once, with the frame,
/// the decode's error, or ``ImageStoreError/cancelled`` if its task was cancelled before the
/// decode started.
final class FrameWaiter<Image: StorableImage>: Sendable {
    typealias Outcome = Result<Image, ImageStoreError>

    private struct State {
        var continuation: CheckedContinuation<Outcome, Never>?
        var job: FrameDecodeQueue.JobID?
        var isCancelled = false
    }

    private let state = Lock(State())

    /// Waits for `decode`, queued at `priority` in `queue`.
    nonisolated(nonsending) func wait(
        in queue: FrameDecodeQueue, priority: ImageLoadPriority, for decode: @escaping @Sendable () -> Outcome
    ) async -> Outcome {
        await withTaskCancellationHandler {
            await withCheckedContinuation { continuation in
                state.withLock { $0.continuation = continuation }
                let id = queue.submit(priority: priority) { self.resume(with: decode()) }
                let cancelledFirst = state.withLock { state in
                    state.job = id
                    return state.isCancelled
                }
                if cancelledFirst, queue.cancel(id) { resume(with: .failure(.cancelled)) }
            }
        } onCancel: {
            let job = state.withLock { state in
                state.isCancelled = true
                return state.job
            }
            // A decode already running finishes and delivers its frame.
            if let job, queue.cancel(job) { resume(with: .failure(.cancelled)) }
        }
    }

    private func resume(with outcome: Outcome) {
        let continuation = state.withLock { state in
            defer { state.continuation = nil }
            return state.continuation
        }
        continuation?.resume(returning: outcome)
    }
}

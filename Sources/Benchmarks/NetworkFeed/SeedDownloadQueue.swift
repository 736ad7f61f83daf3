import Foundation

/// The classic recipe's background queue: `width` worker threads, each taking the newest job of a row on
/// screen first, else the oldest job. Jobs are never cancelled, only dropped when the app ends.
final class SeedDownloadQueue: @unchecked Sendable {
    /// A picture a cell asked for, under the tag of its configuration.
    struct Job: Sendable {
        let url: URL
        let tag: Int
        let slot: Int
    }

    private let condition = NSCondition()
    private var pending: [Job] = []
    private var visibleURLs: Set<URL> = []
    private var isStopped = false
    private var runningWorkers: Int

    /// Starts the workers.
    ///
    /// - Parameter work: Runs one job on a worker thread.
    init(width: Int, work: @escaping @Sendable (Job) -> Void) {
        runningWorkers = width
        for index in 0..<width {
            let thread = Thread { [self] in
                while let job = nextJob() { work(job) }
                condition.withLock {
                    runningWorkers -= 1
                    condition.broadcast()
                }
            }
            thread.name = "seed download \(index)"
            thread.start()
        }
    }

    func add(_ job: Job) {
        condition.withLock {
            pending.append(job)
            condition.signal()
        }
    }

    /// The URLs of the rows on screen now, whose jobs go first.
    func setVisibleURLs(_ urls: Set<URL>) {
        condition.withLock { visibleURLs = urls }
    }

    /// Drops the queued jobs and waits for the running ones and the workers to end.
    func stop() {
        condition.withLock {
            isStopped = true
            pending = []
            condition.broadcast()
            while runningWorkers > 0 { condition.wait() }
        }
    }

    /// The next job, waiting for one; nil once stopped.
    private func nextJob() -> Job? {
        condition.withLock {
            while !isStopped && pending.isEmpty { condition.wait() }
            guard !isStopped else { return nil }
            let index = pending.lastIndex { visibleURLs.contains($0.url) } ?? 0
            return pending.remove(at: index)
        }
    }
}

import Dispatch
import Foundation
import ImageStoreTestSupport
import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

/// Completions run on the downloader's own serial delivery queue: never on the global queues,
/// whose workers Swift's cooperative pool shares on Linux, and never on the session's delegate
/// queue, so a completion that blocks (a disk write, a lock another process holds) stalls neither
/// the app's `async` functions nor the other transfers.
final class DownloadCallbackQueueTests: DownloaderTestCase {
    /// More completions than the machine has cores: on the global queues they would take every
    /// worker the cooperative pool has.
    private let blockedCount = ProcessInfo.processInfo.activeProcessorCount + 1

    func test_completionsBlockedOnANewTask_allFinish_cancelledFailedAndCompleted() {
        // Given: every kind of completion blocks until a task it creates runs
        let released = ReleasedCount()
        let completion: DownloadCompletion = { _ in
            let signal = Flag()
            Task { signal.raise() }
            // Spinning, not sleeping: libdispatch on Linux adds a worker for a blocked one, but not
            // for one that runs. Bounded, so that a starved pool fails the test instead of hanging.
            let deadline = DispatchTime.now() + 10
            while !signal.isRaised, DispatchTime.now() < deadline { sched_yield() }
            released.record(signal.isRaised)
        }
        server.respond(to: "/missing.png", with: .status(404))
        var held = HTTPScriptedResponse.ok([1])
        held.gate = "never"
        for index in 0..<blockedCount { server.respond(to: "/held-\(index).png", with: held) }
        server.respond(to: "/done.png", with: .ok([2]))
        makeDownloader(failureBackoff: 60)
        let failedFirst = DispatchSemaphore(value: 0)
        _ = downloader.download(source("/missing.png"), priority: .normal) { _ in failedFirst.signal() }
        XCTAssertEqual(failedFirst.wait(timeout: .now() + 10), .success)
        // When: cancelled tickets, tickets of a URL that failed within the back-off, and a transfer
        // that completes
        let tickets = (0..<blockedCount).map { index in
            downloader.download(source("/held-\(index).png"), priority: .normal, completion: completion)
        }
        for ticket in tickets { downloader.cancel(ticket) }
        for _ in 0..<blockedCount {
            _ = downloader.download(source("/missing.png"), priority: .normal, completion: completion)
        }
        _ = downloader.download(source("/done.png"), priority: .normal, completion: completion)
        // Then
        let total = 2 * blockedCount + 1
        XCTAssertTrue(released.wait(forCount: total, timeout: 60), "\(released.counts)")
        XCTAssertEqual(released.counts.released, total, "every task ran while the completions waited for it")
    }

    func test_aBlockedCompletion_doesNotHoldUpTheOtherTransfers() {
        // Given: one slot, two transfers; the first one's completion blocks
        server.respond(to: "/first.png", with: .ok([1]))
        server.respond(to: "/second.png", with: .ok([2]))
        makeDownloader(maximumConcurrentDownloads: 1)
        let secondEnded = DispatchSemaphore(value: 0)
        let blocked = DispatchSemaphore(value: 0)
        let downloader = self.downloader!
        _ = downloader.download(source("/first.png"), priority: .high) { _ in
            blocked.signal()
            // The second transfer ends meanwhile: its response is received and its task completes.
            let deadline = Date(timeIntervalSinceNow: 10)
            while downloader.statistics.downloadsCompleted < 2, Date() < deadline { usleep(1_000) }
            if downloader.statistics.downloadsCompleted == 2 { secondEnded.signal() }
        }
        // When
        download("/second.png", priority: .low)
        // Then
        XCTAssertEqual(blocked.wait(timeout: .now() + 10), .success)
        XCTAssertEqual(
            secondEnded.wait(timeout: .now() + 15), .success,
            "the second transfer waited for the first one's completion")
        XCTAssertEqual(outcomes.outcome("/second.png", timeout: 10)?.bytes, [2])
        XCTAssertEqual(server.statistics.completedResponses, 2)
    }
}

/// A flag raised from any thread.
private final class Flag: @unchecked Sendable {
    private let lock = NSLock()
    private var raised = false

    func raise() {
        lock.lock()
        raised = true
        lock.unlock()
    }

    var isRaised: Bool {
        lock.lock()
        defer { lock.unlock() }
        return raised
    }
}

/// Counts completions that were released by their task, and those that gave up waiting.
private final class ReleasedCount: @unchecked Sendable {
    private let condition = NSCondition()
    private var released = 0
    private var timedOut = 0

    func record(_ wasReleased: Bool) {
        condition.lock()
        if wasReleased { released += 1 } else { timedOut += 1 }
        condition.broadcast()
        condition.unlock()
    }

    var counts: (released: Int, timedOut: Int) {
        condition.lock()
        defer { condition.unlock() }
        return (released, timedOut)
    }

    /// Waits until `count` completions returned, released or not.
    func wait(forCount count: Int, timeout: Double) -> Bool {
        let deadline = Date(timeIntervalSinceNow: timeout)
        condition.lock()
        defer { condition.unlock() }
        while released + timedOut < count {
            guard condition.wait(until: deadline) else { return released + timedOut >= count }
        }
        return true
    }
}

import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

final class CoalescingWorkQueueTests: XCTestCase {
    private struct Waiter: PrioritizedWaiter {
        let id: Int
        var priority: ImageLoadPriority
    }

    private typealias Queue = CoalescingWorkQueue<String, [String], Waiter>

    func test_aSecondRequestForTheSameKey_joinsTheJob() {
        var queue = Queue()
        let first = queue.create("a", job: [], coalesces: true, queued: true)
        queue.add(Waiter(id: 1, priority: .normal), to: first)

        XCTAssertEqual(queue.job(producing: "a"), first)
        queue.add(Waiter(id: 2, priority: .normal), to: first)
        XCTAssertEqual(queue[first]?.waiters.map(\.id), [1, 2])
        queue._checkInvariants()
    }

    func test_aJobThatDoesNotCoalesce_isNotFoundByItsKey() {
        var queue = Queue()
        _ = queue.create("a", job: [], coalesces: false, queued: true)

        XCTAssertNil(queue.job(producing: "a"))
    }

    func test_queuedJobs_startHighestPriorityFirst_newestFirstWithinAPriority() {
        var queue = Queue()
        var ids: [String: Int] = [:]
        for (waiter, (key, priority)) in [("a", ImageLoadPriority.low), ("b", .normal), ("c", .low)].enumerated() {
            ids[key] = queue.create(key, job: [], coalesces: true, queued: true)
            queue.add(Waiter(id: waiter, priority: priority), to: ids[key]!)
        }

        let order = [queue.takeNext(), queue.takeNext(), queue.takeNext(), queue.takeNext()]

        XCTAssertEqual(order, [ids["b"], ids["c"], ids["a"], nil])
    }

    func test_aWaiterThatOutranksTheOthers_movesItsQueuedJobUp() {
        var queue = Queue()
        let low = queue.create("low", job: [], coalesces: true, queued: true)
        queue.add(Waiter(id: 1, priority: .low), to: low)
        let normal = queue.create("normal", job: [], coalesces: true, queued: true)
        queue.add(Waiter(id: 2, priority: .normal), to: normal)

        XCTAssertTrue(queue.add(Waiter(id: 3, priority: .high), to: low), "the job's priority changed")

        XCTAssertEqual(queue.takeNext(), low)
        XCTAssertEqual(queue.takeNext(), normal)
        XCTAssertNil(queue.takeNext(), "the stale entry of the moved job is skipped")
    }

    func test_raisingAWaitersPriority_movesItsJob_andLeavingLowersIt() {
        var queue = Queue()
        let first = queue.create("first", job: [], coalesces: true, queued: true)
        queue.add(Waiter(id: 1, priority: .low), to: first)
        let second = queue.create("second", job: [], coalesces: true, queued: true)
        queue.add(Waiter(id: 2, priority: .normal), to: second)
        queue.add(Waiter(id: 3, priority: .low), to: second)

        XCTAssertTrue(queue.setPriority(.veryHigh, ofWaiter: 1))
        XCTAssertEqual(queue.remove(waiter: 2)?.priorityChanged, true, "second drops to low")

        XCTAssertEqual(queue.takeNext(), first)
        XCTAssertEqual(queue.takeNext(), second)
    }

    func test_rekeyingOntoAKeyInProgress_mergesTheWaitersAndTheJobs() {
        var queue = Queue()
        let owner = queue.create("image", job: ["owner"], coalesces: true, queued: false)
        queue.add(Waiter(id: 1, priority: .low), to: owner)
        let other = queue.create("request", job: ["other"], coalesces: true, queued: true)
        queue.add(Waiter(id: 2, priority: .high), to: other)

        let (merged, priorityChanged) = queue.rekey(other, to: "image") { $0 += $1 }

        XCTAssertEqual(merged, owner)
        XCTAssertTrue(priorityChanged)
        XCTAssertNil(queue[other])
        XCTAssertEqual(queue[owner]?.job, ["owner", "other"])
        XCTAssertEqual(queue.job(ofWaiter: 2), owner)
        XCTAssertNil(queue.job(producing: "request"))
        queue._checkInvariants()
    }

    func test_aTakenJobRequeued_getsItsTurnAgain_andEndingForgetsIt() {
        var queue = Queue()
        let job = queue.create("a", job: [], coalesces: true, queued: true)
        queue.add(Waiter(id: 1, priority: .normal), to: job)
        XCTAssertEqual(queue.takeNext(), job)
        XCTAssertNil(queue.takeNext())

        queue.requeue(job)
        XCTAssertEqual(queue.takeNext(), job)

        XCTAssertEqual(queue.end(job)?.waiters.map(\.id), [1])
        XCTAssertNil(queue.job(producing: "a"))
        XCTAssertNil(queue.job(ofWaiter: 1))
        queue._checkInvariants()
    }
}

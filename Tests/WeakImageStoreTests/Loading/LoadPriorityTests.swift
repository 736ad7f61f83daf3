import Foundation
import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

/// Queued loads start by the highest priority among their waiters, the newest first within a
/// priority, recomputed as waiters join and leave.
final class LoadPriorityTests: XCTestCase {
    func test_queuedLoads_startByHighestWaiterPriority() async throws {
        let directory = TestDirectory()
        let files: [(name: String, fill: UInt8)] = [
            ("blocker", 1), ("low1", 10), ("normal", 20), ("high", 30), ("low2", 11), ("veryLow", 5),
        ]
        for file in files { directory.write("\(file.name).png", size: 10 + Int(file.fill), fill: file.fill) }
        let gate = DecodeGate()
        let decoder = FakeDecoder(gates: [1: gate])
        let store = makeStore(directories: [directory.url], maximumConcurrentLoads: 1, decoder: decoder)
        var tasks: [Task<Bitmap, any Error>] = []
        func load(_ name: String, _ priority: ImageLoadPriority) -> Task<Bitmap, any Error> {
            Task { try await store.fetchImage(named: name, priority: priority) }
        }

        // Given the only loading thread busy with work for the screen (a view's load: no
        // visible lane opens beside it), and loads queued one at a time at mixed priorities
        tasks.append(load("blocker", .high))
        XCTAssertTrue(eventually { gate.arrived == 1 })
        for (index, (name, priority)) in [
            ("low1", ImageLoadPriority.low), ("normal", .normal), ("high", .high), ("low2", .low),
            ("veryLow", .veryLow),
        ].enumerated() {
            tasks.append(load(name, priority))
            XCTAssertTrue(eventually { store.statistics.loadsScheduled == index + 2 })
        }
        // When a very high waiter joins low2, and a very high waiter joins veryLow and leaves again
        tasks.append(load("low2", .veryHigh))
        XCTAssertTrue(eventually { store.statistics.coalescedLoads == 1 })
        let leaving = load("veryLow", .veryHigh)
        XCTAssertTrue(eventually { store.statistics.coalescedLoads == 2 })
        leaving.cancel()
        XCTAssertTrue(eventually { store.statistics.waitersCancelled == 1 })
        gate.open()
        for task in tasks { _ = try await task.value }

        // Then
        XCTAssertEqual(decoder.log.fills, [1, 11, 30, 20, 10, 5])
    }

    func test_aViewsLoad_doesNotWaitForARunningPrefetch_onTheVisibleLane() async throws {
        let directory = TestDirectory()
        directory.write("prefetched.png", size: 10, fill: 1)
        directory.write("visible.png", size: 12, fill: 2)
        let gate = DecodeGate()
        let decoder = FakeDecoder(gates: [1: gate])
        let store = makeStore(directories: [directory.url], maximumConcurrentLoads: 1, decoder: decoder)
        // Given: the only loading thread decodes a prefetched photo
        let prefetch = store.prefetch(named: ["prefetched"])
        XCTAssertTrue(eventually { gate.arrived == 1 })
        // When: a view asks for another image
        let visible = Task { try await store.fetchImage(named: "visible", priority: .high) }
        // Then: it is decoded while the prefetch still runs
        XCTAssertTrue(eventually { decoder.log.fills.contains(2) }, "the view's load waited for the prefetch")
        let image = try await visible.value
        XCTAssertEqual(image.width, 12)
        gate.open()
        await prefetch.finished()
        XCTAssertEqual(prefetch.progress.loaded, 1)
    }

    func test_priorityStacks_skipStaleEntries_andTakeNewestFirstWithinAPriority() {
        var stacks = PriorityStacks()
        var tickets: [Int: Int] = [:]
        tickets[2] = stacks.push(2, at: .low)
        tickets[1] = stacks.push(1, at: .low)
        tickets[3] = stacks.push(3, at: .normal)
        tickets[4] = stacks.push(4, at: .low)
        tickets[1] = stacks.push(1, at: .high)  // 1 moved up: its .low entry is stale

        var order: [Int] = []
        while let next = stacks.next(isCurrent: { tickets[$0] == $1 }) {
            order.append(next)
            tickets[next] = nil
        }

        XCTAssertEqual(order, [1, 3, 4, 2])
    }

    func test_priorities_areOrdered() {
        XCTAssertEqual(ImageLoadPriority.allCases.sorted(), [.veryLow, .low, .normal, .high, .veryHigh])
    }
}

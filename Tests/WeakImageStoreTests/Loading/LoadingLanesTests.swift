import Foundation
import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

/// Loads run on the store's own lanes: loads blocked in a provider never hold the workers Swift
/// concurrency needs (on Linux, Dispatch's global queues share theirs with its cooperative pool).
final class LoadingLanesTests: XCTestCase {
    func test_loadsBlockedInProviders_leaveSwiftConcurrencyRunning() {
        // Given: 16 loads per core, each blocked in its provider until a new task lets it go.
        // On Linux, Dispatch's global queues add a thread about once a second while all of
        // theirs are blocked, so loads run there would hold a new task back for about as many
        // seconds as there are loads: far longer than the wait below.
        let loads = 16 * ProcessInfo.processInfo.activeProcessorCount
        let gate = DecodeGate()
        let store = makeStore(policy: .weak, directories: [], maximumConcurrentLoads: loads)
        let providers = (0..<loads).map { TestDataProvider(identity: "blob/\($0)", size: 10, gate: gate) }
        let prefetch = store.prefetch(providers.map { .provider($0) }, priority: .high)
        XCTAssertTrue(eventually { gate.arrived == loads }, "the providers were never all read")
        // When
        Task { gate.open() }
        // Then: the task ran although every loading thread was blocked
        let finished = eventually(timeout: 20) { prefetch.progress.isFinished }
        gate.open()
        XCTAssertTrue(finished, "a new Task never ran while the loading threads were blocked")
        XCTAssertEqual(prefetch.progress.loaded, loads)
    }

    func test_lanes_areReused_oneAfterAnother() {
        // Given
        let lanes = LoadingLanes(label: "test")
        // When: three runs, each after the one before went idle
        for _ in 0..<3 {
            let done = Latch<Void>()
            lanes.run { done.complete(with: ()) }
            done.wait()
            XCTAssertTrue(eventually { lanes.idleCount == 1 })
        }
        // Then
        XCTAssertEqual(lanes.idleCount, 1, "a new queue was made although one was idle")
    }

    func test_lanes_runAtOnce_whenEveryLaneIsBusy() {
        // Given: a lane blocked until the second lane runs
        let lanes = LoadingLanes(label: "test")
        let second = DispatchSemaphore(value: 0)
        let first = DispatchSemaphore(value: 0)
        lanes.run {
            if second.wait(timeout: .now() + 20) == .success { first.signal() }
        }
        // When
        lanes.run { second.signal() }
        // Then: had both run on one serial lane, the first would have timed out
        XCTAssertEqual(first.wait(timeout: .now() + 30), .success, "the second run waited behind the first")
        XCTAssertTrue(eventually { lanes.idleCount == 2 })
    }
}

import Foundation
import ImageStoreTestSupport
import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

/// A cancelled waiter gets `.cancelled` at once; a load is cancelled only when its last waiter
/// leaves; every waiter hears exactly once.
final class CancellationTests: XCTestCase {
    /// A store whose only loading thread is stuck on "blocker" until `gate` opens.
    private func makeBlockedStore(
        _ directory: TestDirectory, policy: CachePolicy = .default, extraGates: [UInt8] = []
    ) async -> (ImageStore<Bitmap>, FakeDecoder, DecodeGate, Task<Bitmap, any Error>) {
        directory.write("blocker.png", size: 10, fill: 1)
        let gate = DecodeGate()
        var gates = [UInt8(1): gate]
        for fill in extraGates { gates[fill] = gate }
        let decoder = FakeDecoder(gates: gates)
        let store = makeStore(policy: policy, directories: [directory.url], maximumConcurrentLoads: 1, decoder: decoder)
        let blocker = Task { try await store.fetchImage(named: "blocker") }
        XCTAssertTrue(eventually { gate.arrived == 1 })
        return (store, decoder, gate, blocker)
    }

    func test_cancelledTask_getsCancelledAtOnce_andItsQueuedLoadIsDropped() async throws {
        let directory = TestDirectory()
        directory.write("queued.png", size: 20, fill: 2)
        let (store, decoder, gate, blocker) = await makeBlockedStore(directory)
        let waiter = Task { try await store.fetchImage(named: "queued") }
        XCTAssertTrue(eventually { store.statistics.loadsScheduled == 2 })

        waiter.cancel()
        let result = await waiter.result

        XCTAssertEqual(result.failure as? ImageStoreError, .cancelled, "the waiter waited for the decode")
        XCTAssertEqual(store.statistics.waitersCancelled, 1)
        XCTAssertEqual(store.statistics.loadsCancelledBeforeStart, 1)
        gate.open()
        _ = try await blocker.value
        XCTAssertEqual(decoder.log.fills, [1], "a load nobody waits for was decoded")
    }

    func test_taskCancelledBeforeItAsks_getsCancelled() async throws {
        let directory = TestDirectory()
        directory.write("icon.png", size: 20, fill: 2)
        let decoder = FakeDecoder()
        let store = makeStore(directories: [directory.url], decoder: decoder)

        let waiter = Task {
            withUnsafeCurrentTask { $0?.cancel() }
            return try await store.fetchImage(named: "icon")
        }
        let result = await waiter.result

        XCTAssertEqual(result.failure as? ImageStoreError, .cancelled)
        XCTAssertEqual(store.statistics.waitersCancelled, 1)
        XCTAssertEqual(store.statistics.lookups, 1)
        XCTAssertEqual(decoder.calls.count, 0)
    }

    func test_oneWaiterLeaving_doesNotCancelTheLoadForTheOthers() async throws {
        let directory = TestDirectory()
        directory.write("shared.png", size: 20, fill: 2)
        let (store, decoder, gate, blocker) = await makeBlockedStore(directory)
        let leaving = Task { try await store.fetchImage(named: "shared") }
        XCTAssertTrue(eventually { store.statistics.loadsScheduled == 2 })
        let staying = Task { try await store.fetchImage(named: "shared") }
        XCTAssertTrue(eventually { store.statistics.coalescedLoads == 1 })

        leaving.cancel()
        let leavingResult = await leaving.result
        gate.open()
        let image = try await staying.value
        _ = try await blocker.value

        XCTAssertEqual(leavingResult.failure as? ImageStoreError, .cancelled)
        XCTAssertEqual(image.cost, 20)
        XCTAssertEqual(decoder.log.fills, [1, 2])
        XCTAssertEqual(store.statistics.loadsCancelledBeforeStart, 0)
    }

    func test_runningLoad_whoseLastWaiterLeft_finishes_andIsStored() async throws {
        let directory = TestDirectory()
        directory.write("icon.png", size: 20, fill: 2)
        let gate = DecodeGate()
        let decoder = FakeDecoder(gates: [2: gate])
        let store = makeStore(directories: [directory.url], decoder: decoder)
        let waiter = Task { try await store.fetchImage(named: "icon") }
        XCTAssertTrue(eventually { gate.arrived == 1 })

        waiter.cancel()
        let result = await waiter.result
        gate.open()

        XCTAssertEqual(result.failure as? ImageStoreError, .cancelled)
        XCTAssertTrue(eventually { store.cachedImage(named: "icon") != nil }, "the decoded icon was not stored")
        XCTAssertEqual(decoder.calls.count, 1)
    }

    func test_removeAll_cancelsQueuedLoads() async throws {
        let directory = TestDirectory()
        directory.write("queued.png", size: 20, fill: 2)
        let (store, decoder, gate, blocker) = await makeBlockedStore(directory)
        let waiter = Task { try await store.fetchImage(named: "queued") }
        XCTAssertTrue(eventually { store.statistics.loadsScheduled == 2 })

        store.removeAll()
        let result = await waiter.result
        gate.open()
        _ = try await blocker.value

        XCTAssertEqual(result.failure as? ImageStoreError, .cancelled)
        XCTAssertEqual(store.statistics.loadsCancelledBeforeStart, 1)
        XCTAssertEqual(decoder.log.fills, [1])
    }

    func test_randomMix_resumesEveryWaiterExactlyOnce() async throws {
        let directory = TestDirectory()
        for index in 0..<24 {
            directory.write("img\(index).png", size: 50 + index, fill: UInt8(index))
        }
        directory.write("broken.png", Array("FAIL".utf8))
        let store = makeStore(
            directories: [directory.url], maximumConcurrentLoads: 2,
            decoder: FakeDecoder(delay: 0.005, pollsForStop: true))
        let names = (0..<24).map { "img\($0)" } + ["broken", "absent", "img3.png"]
        let outcomes = Lock((images: 0, failures: 0, cancelled: 0))
        var random = SeededGenerator(seed: 42)
        let plan = (0..<400).map { index in
            (
                name: names.randomElement(using: &random)!,
                priority: ImageLoadPriority.allCases.randomElement(using: &random)!,
                // The first tasks are cancelled as they are created, while nothing is in memory
                // yet, so some cancellations surely count however fast the machine is.
                cancelAfter: index < 20 ? 0 : Int.random(in: -1..<300, using: &random),
                action: Int.random(in: 0..<100, using: &random)
            )
        }

        await withTaskGroup(of: Void.self) { group in
            for step in plan {
                let task = Task { () -> Void in
                    do throws(ImageStoreError) {
                        let image = try await store.fetchImage(named: step.name, priority: step.priority)
                        precondition(image.cost >= 50)
                        outcomes.withLock { $0.images += 1 }
                    } catch .cancelled {
                        outcomes.withLock { $0.cancelled += 1 }
                    } catch {
                        outcomes.withLock { $0.failures += 1 }
                    }
                }
                if step.cancelAfter == 0 { task.cancel() }
                group.addTask {
                    if step.cancelAfter > 0 {
                        try? await Task.sleep(nanoseconds: UInt64(step.cancelAfter) * 10_000)
                        task.cancel()
                    }
                    await task.value
                }
                if step.action < 3 {
                    group.addTask { store.removeAll() }
                } else if step.action < 8 {
                    let prefetch = store.prefetch(named: Array(names.shuffled().prefix(3)))
                    group.addTask {
                        if step.action < 5 { prefetch.cancel() } else { await prefetch.finished() }
                    }
                } else if step.action < 12 {
                    group.addTask { _ = store.image(named: step.name) }
                }
            }
        }

        let total = outcomes.withLock { $0.images + $0.failures + $0.cancelled }
        XCTAssertEqual(total, plan.count, "every waiter heard exactly once")
        // A load whose waiters all left while it ran may still be finishing.
        XCTAssertTrue(
            eventually { store.engine._withState { $0.loads.inFlight.operations.isEmpty } },
            "loads left behind: \(store.engine._withState { $0.loads.inFlight.operations })")
        let statistics = store.statistics
        XCTAssertEqual(
            statistics.lookups,
            statistics.strongHits + statistics.weakHits + statistics.misses + statistics.coalescedLoads)
        XCTAssertGreaterThan(outcomes.withLock { $0.cancelled }, 0)
        XCTAssertGreaterThan(outcomes.withLock { $0.images }, 0)
    }
}

extension Result {
    fileprivate var failure: Failure? {
        if case .failure(let error) = self { return error }
        return nil
    }
}

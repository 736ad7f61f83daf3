import Foundation
import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

/// The asynchronous API: hits without suspending, misses off the caller's thread, one load
/// shared by every kind of caller, failures delivered to every waiter.
final class AsyncLoadingTests: XCTestCase {
    func test_asyncHit_returnsWithoutSuspending() async throws {
        let directory = TestDirectory()
        directory.write("icon.png", size: 50, fill: 1)
        let store = makeStore(directories: [directory.url])
        let probe = SuspensionProbe()

        let (missImage, missSuspended) = try await probe.lookUp("icon", in: store)
        let (hitImage, hitSuspended) = try await probe.lookUp("icon", in: store)

        XCTAssertTrue(missSuspended, "a miss waits for a loading thread, so the probe must see a suspension")
        XCTAssertFalse(hitSuspended, "a hit must return without suspending or scheduling work")
        XCTAssertIdentical(missImage, hitImage)
        XCTAssertEqual(store.statistics.lookups, 2)
        XCTAssertEqual(store.statistics.loadsScheduled, 1)
    }

    @MainActor
    func test_asyncMiss_decodesOffTheCallersThread() async throws {
        let directory = TestDirectory()
        directory.write("photo.png", size: 500, fill: 9)
        let decoder = FakeDecoder()
        let store = makeStore(directories: [directory.url], decoder: decoder)

        let image = try await store.fetchImage(named: "photo")

        XCTAssertEqual(image.cost, 500)
        XCTAssertEqual(decoder.log.entries.count, 1)
        XCTAssertEqual(decoder.log.entries.first?.onMainThread, false, "decoded on the main actor's thread")
    }

    func test_syncAsyncAndPrefetch_shareOneLoad() async throws {
        let directory = TestDirectory()
        directory.write("photo.png", size: 500, fill: 9)
        let gate = DecodeGate()
        let decoder = FakeDecoder(gates: [9: gate])
        let store = makeStore(policy: .weak, directories: [directory.url], decoder: decoder)

        let task = Task { try await store.fetchImage(named: "photo") }
        XCTAssertTrue(eventually { gate.arrived == 1 }, "the load never started")
        let prefetch = store.prefetch(named: ["photo"])
        let syncResult = Lock<Bitmap?>(nil)
        let syncCaller = Thread { syncResult.withLock { $0 = store.image(named: "photo.png") } }
        syncCaller.start()
        XCTAssertTrue(eventually { store.statistics.coalescedLoads == 2 }, "\(store.statistics)")
        gate.open()
        let asyncImage = try await task.value
        await prefetch.finished()
        XCTAssertTrue(eventually { syncResult.withLock { $0 } != nil })

        XCTAssertEqual(decoder.calls.count, 1)
        XCTAssertIdentical(syncResult.withLock { $0 }, asyncImage)
        XCTAssertIdentical(prefetch.loadedImages["photo"] as? Bitmap, asyncImage)
        let statistics = store.statistics
        XCTAssertEqual(statistics.lookups, 3)
        XCTAssertEqual(statistics.misses, 1)
        XCTAssertEqual(statistics.coalescedLoads, 2)
        XCTAssertEqual(statistics.loadsScheduled, 1)
        XCTAssertEqual(statistics.decodes, 1)
    }

    func test_syncCaller_takesOverAQueuedLoad_insteadOfWaitingBehindOthers() async throws {
        let directory = TestDirectory()
        directory.write("slow.png", size: 100, fill: 1)
        directory.write("wanted.png", size: 200, fill: 2)
        let gate = DecodeGate()
        let decoder = FakeDecoder(gates: [1: gate])
        let store = makeStore(directories: [directory.url], maximumConcurrentLoads: 1, decoder: decoder)
        let slow = Task { try await store.fetchImage(named: "slow") }
        XCTAssertTrue(eventually { gate.arrived == 1 })
        let queued = Task { try await store.fetchImage(named: "wanted") }
        XCTAssertTrue(eventually { store.statistics.loadsScheduled == 2 })

        // The only loading thread is stuck on "slow": a sync caller must not wait for it.
        let image = try store.loadImage(named: "wanted")

        XCTAssertEqual(image.cost, 200)
        XCTAssertEqual(decoder.log.entries.last?.thread, ObjectIdentifier(Thread.current), "not decoded by the caller")
        let queuedImage = try await queued.value
        XCTAssertIdentical(queuedImage, image, "the async waiter got another instance")
        XCTAssertEqual(store.statistics.loadsTakenOver, 1)
        XCTAssertEqual(store.statistics.decodes, 1, "slow is still blocked, wanted decoded once")
        gate.open()
        let slowImage = try await slow.value
        XCTAssertEqual(slowImage.cost, 100)
        XCTAssertEqual(decoder.calls.count, 2)
    }

    func test_failure_reachesEveryAsyncWaiter_andIsNotCached() async throws {
        let directory = TestDirectory()
        directory.write("broken.png", Array("FAIL here".utf8))
        let gate = DecodeGate()
        let decoder = FakeDecoder(gates: [UInt8(ascii: "F"): gate])
        let store = makeStore(directories: [directory.url], decoder: decoder)
        let tasks = (0..<3).map { _ in
            Task { () -> ImageStoreError? in
                do throws(ImageStoreError) {
                    _ = try await store.fetchImage(named: "broken")
                    return nil
                } catch {
                    return error
                }
            }
        }
        XCTAssertTrue(eventually { store.statistics.lookups == 3 && gate.arrived == 1 })
        gate.open()

        var errors: [ImageStoreError?] = []
        for task in tasks { errors.append(await task.value) }

        let expected = ImageStoreError.decodingFailed(
            path: FileSystem.realPath(directory.path + "/broken.png")!, reason: "fake decoder refused the file")
        XCTAssertEqual(errors, [expected, expected, expected])
        XCTAssertEqual(decoder.calls.count, 1)
        _ = try? await store.fetchImage(named: "broken")
        XCTAssertEqual(decoder.calls.count, 2, "a failure is not cached")
    }

    func test_missingName_failsWithNotFound_andTheFailureIsRemembered() async throws {
        let directory = TestDirectory()
        let store = makeStore(directories: [directory.url])

        for _ in 0..<2 {
            do {
                _ = try await store.fetchImage(named: "absent")
                XCTFail("found an absent image")
            } catch {
                XCTAssertNotFound(error, name: "absent")
            }
        }
        XCTAssertEqual(store.statistics.loadsScheduled, 1, "the second lookup answered from memory")
        XCTAssertEqual(store.statistics.misses, 2)
    }

    func test_contentsOfFile_async_sharesWithTheName() async throws {
        let directory = TestDirectory()
        let path = directory.write("icon@2x.png", size: 40, fill: 3)
        let store = makeStore(directories: [directory.url])

        let byPath = try await store.fetchImage(contentsOfFile: path)
        let byName = try await store.fetchImage(named: "icon")

        XCTAssertIdentical(byPath, byName)
        XCTAssertIdentical(store.cachedImage(contentsOfFile: path), byPath)
        XCTAssertEqual(byPath.scale, 2)
    }

    func test_cachedImage_neverLoads() throws {
        let directory = TestDirectory()
        directory.write("icon.png", size: 40, fill: 3)
        let decoder = FakeDecoder()
        let store = makeStore(directories: [directory.url], decoder: decoder)

        XCTAssertNil(store.cachedImage(named: "icon"), "never resolved: nothing in memory")
        let loaded = try XCTUnwrap(store.image(named: "icon"))
        XCTAssertIdentical(store.cachedImage(named: "icon"), loaded)
        XCTAssertIdentical(store.cachedImage(named: "icon.png"), nil, "another spelling, never resolved")

        XCTAssertEqual(decoder.calls.count, 1)
        let statistics = store.statistics
        XCTAssertEqual(statistics.lookups, 4)
        XCTAssertEqual(statistics.misses, 3)
        XCTAssertEqual(statistics.strongHits, 1)
    }

    func test_loadingThreads_runAtMostMaximumConcurrentLoads() async throws {
        let directory = TestDirectory()
        let gate = DecodeGate()
        var gates: [UInt8: DecodeGate] = [:]
        for index in 0..<8 {
            directory.write("img\(index).png", size: 100 + index, fill: UInt8(index))
            gates[UInt8(index)] = gate
        }
        let decoder = FakeDecoder(gates: gates)
        let store = makeStore(directories: [directory.url], maximumConcurrentLoads: 2, decoder: decoder)
        let tasks = (0..<8).map { index in Task { try await store.fetchImage(named: "img\(index)") } }

        XCTAssertTrue(eventually { store.statistics.loadsScheduled == 8 && gate.arrived == 2 })
        try await Task.sleep(nanoseconds: 100_000_000)
        XCTAssertEqual(gate.arrived, 2, "more decodes started than maximumConcurrentLoads")
        gate.open()
        for task in tasks { _ = try await task.value }

        XCTAssertEqual(decoder.calls.count, 8)
    }

    func test_uncached_asyncLookups_doNotShare() async throws {
        let directory = TestDirectory()
        directory.write("icon.png", size: 10, fill: 4)
        let decoder = FakeDecoder()
        let store = makeStore(policy: .uncached, directories: [directory.url], decoder: decoder)

        let first = try await store.fetchImage(named: "icon")
        let second = try await store.fetchImage(named: "icon")

        XCTAssertNotIdentical(first, second)
        XCTAssertEqual(decoder.calls.count, 2)
    }
}

/// Observes whether an `await` suspended: a job enqueued on the actor before the call can only
/// run if the call gives the actor up.
private actor SuspensionProbe {
    private var interleaved = false

    func lookUp(_ name: String, in store: ImageStore<Bitmap>) async throws -> (Bitmap, suspended: Bool) {
        interleaved = false
        Task { self.markInterleaved() }
        let image = try await store.fetchImage(named: name)
        return (image, interleaved)
    }

    private func markInterleaved() {
        interleaved = true
    }
}

import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

/// `liveCost`, `liveCount`, `peakLiveCost` and `weakCount`, asserted to the byte after every
/// event that changes what is alive.
final class LiveAccountingTests: XCTestCase {
    private let lru = CachePolicy.weakWithLRU(costLimit: 1000, countLimit: 10, admissionCostLimit: 100)

    private func assertLive(
        _ store: ImageStore<some StorableImage>, cost: Int, count: Int, weakCount: Int? = nil,
        _ message: String = "", file: StaticString = #filePath, line: UInt = #line
    ) {
        let statistics = store.statistics
        XCTAssertEqual(statistics.liveCost, cost, "liveCost \(message)", file: file, line: line)
        XCTAssertEqual(statistics.liveCount, count, "liveCount \(message)", file: file, line: line)
        if let weakCount {
            XCTAssertEqual(statistics.weakCount, weakCount, "weakCount \(message)", file: file, line: line)
        }
    }

    func test_liveCost_countsHeldAndLRUImages_onCreation() {
        let directory = TestDirectory()
        directory.write("icon.png", size: 10)
        directory.write("photo.png", size: 500)
        let store = makeStore(policy: lru, directories: [directory.url])

        _ = store.image(named: "icon")  // only the LRU holds it
        let photo = store.image(named: "photo")  // only the test holds it

        assertLive(store, cost: 510, count: 2, weakCount: 2)
        XCTAssertEqual(store.statistics.peakLiveCost, 510)
        XCTAssertNotNil(photo)
    }

    func test_liveCost_countsSharedInstanceOnce_perStore() {
        let directory = TestDirectory()
        directory.write("photo.png", size: 500)
        let store = makeStore(policy: .weak, directories: [directory.url])

        let first = store.image(named: "photo")
        let second = store.image(named: "photo.png")

        XCTAssertIdentical(first, second)
        assertLive(store, cost: 500, count: 1, weakCount: 1)
    }

    func test_liveCost_dropsToZero_whenLastHolderReleases() {
        let directory = TestDirectory()
        directory.write("photo.png", size: 500)
        let store = makeStore(policy: lru, directories: [directory.url])
        var photo = store.image(named: "photo")

        assertLive(store, cost: 500, count: 1, weakCount: 1)
        photo = nil

        assertLive(store, cost: 0, count: 0, weakCount: 0, "the entry goes with the image, no sweep needed")
        XCTAssertEqual(store.statistics.peakLiveCost, 500)
        XCTAssertNil(photo)
    }

    func test_liveCost_dropsEvictedImage_whenLRUEvictsIt() {
        let directory = TestDirectory()
        directory.write("a.png", size: 40)
        directory.write("b.png", size: 30)
        let store = makeStore(
            policy: .weakWithLRU(costLimit: 1000, countLimit: 1, admissionCostLimit: 100), directories: [directory.url])
        _ = store.image(named: "a")
        assertLive(store, cost: 40, count: 1, weakCount: 1)

        _ = store.image(named: "b")  // evicts a, which nobody else holds

        assertLive(store, cost: 30, count: 1, weakCount: 1)
        XCTAssertEqual(store.statistics.evictions, 1)
    }

    func test_liveCost_keepsEvictedImage_whileSomeoneHoldsIt() {
        let directory = TestDirectory()
        directory.write("a.png", size: 40)
        directory.write("b.png", size: 30)
        let store = makeStore(
            policy: .weakWithLRU(costLimit: 1000, countLimit: 1, admissionCostLimit: 100), directories: [directory.url])
        var a = store.image(named: "a")
        _ = store.image(named: "b")

        assertLive(store, cost: 70, count: 2, weakCount: 2)
        a = nil
        assertLive(store, cost: 30, count: 1, weakCount: 1)
        XCTAssertNil(a)
    }

    func test_liveCost_followsMemoryPressure() {
        let directory = TestDirectory()
        for index in 0..<4 { directory.write("icon\(index).png", size: 20 + index) }
        directory.write("photo.png", size: 500)
        let store = makeStore(policy: lru, directories: [directory.url])
        for index in 0..<4 { _ = store.image(named: "icon\(index)") }
        let photo = store.image(named: "photo")
        assertLive(store, cost: 20 + 21 + 22 + 23 + 500, count: 5)

        store.handleMemoryPressure(.warning)  // count limit 10 -> 5: nothing to trim
        assertLive(store, cost: 586, count: 5)
        store.handleMemoryPressure(.critical)

        assertLive(store, cost: 500, count: 1, weakCount: 1)
        XCTAssertNotNil(photo)
    }

    func test_liveCost_isExact_underEveryPolicy() {
        for policy in allPolicies {
            let directory = TestDirectory()
            directory.write("icon.png", size: 10)
            directory.write("photo.png", size: 500)
            let store = makeStore(policy: policy, directories: [directory.url])

            var held = [store.image(named: "photo"), store.image(named: "photo"), store.image(named: "icon")]
            let distinct = Set(held.compactMap { $0.map(ObjectIdentifier.init) })
            let heldCost = held.reduce(into: [ObjectIdentifier: Int]()) { $0[ObjectIdentifier($1!)] = $1!.cost }
                .values.reduce(0, +)
            var expectedCost = heldCost
            var expectedCount = distinct.count
            XCTAssertEqual(store.statistics.liveCost, expectedCost, "\(policy)")
            XCTAssertEqual(store.statistics.liveCount, expectedCount, "\(policy)")

            held.removeAll()
            // What the strong layer keeps stays alive; the rest died with the last holder.
            expectedCost = store.statistics.strongCost
            expectedCount = store.statistics.strongCount
            XCTAssertEqual(store.statistics.liveCost, expectedCost, "\(policy)")
            XCTAssertEqual(store.statistics.liveCount, expectedCount, "\(policy)")
            store.handleMemoryPressure(.critical)
            XCTAssertEqual(store.statistics.liveCost, 0, "\(policy)")
            XCTAssertEqual(store.statistics.liveCount, 0, "\(policy)")
        }
    }

    func test_liveCost_dropsImage_releasedOnAnotherThread() {
        let directory = TestDirectory()
        directory.write("photo.png", size: 500)
        let store = makeStore(policy: lru, directories: [directory.url])
        let handoff = Handoff(store.image(named: "photo"))
        assertLive(store, cost: 500, count: 1)

        onAnotherThread { handoff.value = nil }

        assertLive(store, cost: 0, count: 0, weakCount: 0)
    }

    func test_liveCost_matchesBitmapMemory_atEveryStep() {
        let directory = TestDirectory()
        for index in 0..<6 { directory.write("img\(index).png", size: [10, 90, 300, 40, 700, 60][index]) }
        let baseline = Bitmap.memory.liveBytes
        let store = makeStore(
            policy: .weakWithLRU(costLimit: 100, countLimit: 2, admissionCostLimit: 100), directories: [directory.url])
        var held: [Bitmap] = []
        for step in 0..<60 {
            let image = store.image(named: "img\(step % 6)")!
            if step % 3 == 0 { held.append(image) }
            if step % 5 == 0, !held.isEmpty { held.removeFirst() }
            if step % 17 == 0 { store.handleMemoryPressure(step % 2 == 0 ? .warning : .critical) }

            XCTAssertEqual(store.statistics.liveCost, Bitmap.memory.liveBytes - baseline, "step \(step)")
        }
    }

    func test_peakLiveCost_restartsAtCurrentLiveCost_whenReset() {
        let directory = TestDirectory()
        directory.write("a.png", size: 300)
        directory.write("b.png", size: 200)
        let store = makeStore(policy: .weak, directories: [directory.url])
        var a = store.image(named: "a")
        let b = store.image(named: "b")
        a = nil
        XCTAssertEqual(store.statistics.peakLiveCost, 500)

        store.resetPeakLiveCost()

        XCTAssertEqual(store.statistics.peakLiveCost, 200)
        XCTAssertNil(a)
        XCTAssertNotNil(b)
    }

    func test_imageShared_byTwoStores_countsInEach_andSurvivesEitherStore() {
        let directory = TestDirectory()
        directory.write("shared.png", size: 10)
        let bitmap = Bitmap(width: 64, height: 1, format: .gray8, pixels: [UInt8](repeating: 0, count: 64))
        var firstConfiguration = ImageStore<Bitmap>.Configuration(
            directories: [directory.url], decoder: FixedDecoder(bitmap: bitmap))
        firstConfiguration.policy = .weak
        var first: ImageStore<Bitmap>? = ImageStore(firstConfiguration)
        var secondConfiguration = ImageStore<Bitmap>.Configuration(
            directories: [directory.url], decoder: FixedDecoder(bitmap: bitmap))
        secondConfiguration.policy = .weak
        let second = ImageStore(secondConfiguration)
        var image = first!.image(named: "shared")
        XCTAssertIdentical(second.image(named: "shared"), image)
        assertLive(first!, cost: 64, count: 1)
        assertLive(second, cost: 64, count: 1)
        weak let firstEngine = first!.engine

        first = nil  // the store dies before its image
        XCTAssertNil(firstEngine, "the image must not keep the store alive")
        image = nil
        assertLive(second, cost: 64, count: 1, "the test's `bitmap` still holds it")
        XCTAssertEqual(bitmap.deathNotifier._registrationCount, 2, "one registration per store")
    }

    func test_storeDyingFirst_thenImageDying_reportsNowhere_andDoesNotCrash() {
        let directory = TestDirectory()
        directory.write("photo.png", size: 500)
        var store: ImageStore<Bitmap>? = makeStore(policy: lru, directories: [directory.url])
        var photo = store!.image(named: "photo")
        weak let engine = store!.engine

        store = nil
        XCTAssertNil(engine)
        photo = nil

        XCTAssertNil(photo)
    }

    func test_lateDeathReport_ofOldImage_keepsNewImageUnderSameKey() {
        for policy in weakPolicies {
            let directory = TestDirectory()
            directory.write("photo.png", size: 500)  // above the LRU's admission limit
            let gate = DeathGate()
            let decoder = GatedDecoder(gate: gate)
            var configuration = ImageStore<GatedImage>.Configuration(directories: [directory.url], decoder: decoder)
            configuration.policy = policy
            let store = ImageStore(configuration)
            let handoff = Handoff(store.image(named: "photo"))
            let finished = DispatchSemaphore(value: 0)

            // Given: the old image is dying on another thread (weak references read nil) and
            // its report is held back.
            Thread {
                handoff.value = nil
                finished.signal()
            }.start()
            gate.dying.wait()

            // When: a lookup misses, loads a new image under the same key, and only then the old
            // image's report arrives.
            let newImage = store.image(named: "photo")
            XCTAssertEqual(decoder.calls.count, 2, "\(policy)")
            assertLive(store, cost: 1000, count: 2, "\(policy): the dying image is not freed yet")
            gate.proceed.signal()
            finished.wait()

            // Then: the new entry stays, and only the old image left the figures.
            assertLive(store, cost: 500, count: 1, weakCount: 1, "\(policy)")
            XCTAssertIdentical(store.image(named: "photo"), newImage, "\(policy)")
            XCTAssertEqual(decoder.calls.count, 2, "\(policy): the new image is still shared")
        }
    }

    func test_unwatchedImages_areCountedWhileAlive_byWeakReference() {
        let directory = TestDirectory()
        directory.write("a.png", size: 300)
        directory.write("b.png", size: 200)
        var configuration = ImageStore<SilentImage>.Configuration(
            directories: [directory.url], decoder: SilentDecoder())
        configuration.policy = .weak
        let store = ImageStore(configuration)
        var a = store.image(named: "a")
        let b = store.image(named: "b")
        assertLive(store, cost: 500, count: 2)

        a = nil

        assertLive(store, cost: 200, count: 1)
        XCTAssertNil(a)
        XCTAssertNotNil(b)
    }
}

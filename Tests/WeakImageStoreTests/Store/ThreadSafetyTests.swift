import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

/// Every public method from many threads at once, with exact totals afterwards.
final class ThreadSafetyTests: XCTestCase {
    func test_manyThreads_manyLookups_countExactly() throws {
        for policy in allPolicies {
            let directory = TestDirectory()
            for index in 0..<20 { directory.write("icon\(index).png", size: 10 + index) }
            let store = makeStore(policy: policy, directories: [directory.url])
            let threads = 8
            let perThread = 2000

            runConcurrently(threads: threads) { thread in
                var held: [Bitmap] = []
                for step in 0..<perThread {
                    let name = "icon\((step * 7 + thread) % 20)"
                    if let image = store.image(named: name) {
                        XCTAssertEqual(image.cost, 10 + (step * 7 + thread) % 20, "wrong image for \(name)")
                        held.append(image)
                    }
                    if held.count > 5 { held.removeFirst() }
                    if step % 500 == 0 { store.handleMemoryPressure(thread.isMultiple(of: 2) ? .warning : .critical) }
                }
            }

            let statistics = store.statistics
            XCTAssertEqual(statistics.lookups, threads * perThread, "\(policy)")
            XCTAssertEqual(
                statistics.strongHits + statistics.weakHits + statistics.misses + statistics.coalescedLoads,
                statistics.lookups, "\(policy)"
            )
            XCTAssertEqual(statistics.decodes, statistics.misses, "\(policy): every miss decoded once")
        }
    }

    func test_nothingDecodesOrDeallocates_whileTheLockIsHeld() throws {
        for policy in [
            CachePolicy.strong, .retainCountSweep, .weak,
            .weakWithLRU(costLimit: 30, countLimit: 3, admissionCostLimit: 100),
        ] {
            let directory = TestDirectory()
            for index in 0..<10 { directory.write("icon\(index).png", size: 10) }
            let probe = LockProbe()
            var configuration = ImageStore<ProbeImage>.Configuration(
                directories: [directory.url], decoder: ProbeDecoder(probe: probe))
            configuration.policy = policy
            let store = ImageStore(configuration)
            probe.watch(store)

            for _ in 0..<3 {
                for index in 0..<(RetainCountSweep.interval / 2) { _ = store.image(named: "icon\(index % 10)") }
                store.handleMemoryPressure(.warning)
                store.handleMemoryPressure(.critical)
            }
            store.removeAll()
            probe.watch(nil)

            XCTAssertGreaterThan(probe.deallocations, 10, "\(policy): the probe saw too few deallocations")
            XCTAssertEqual(probe.violations, 0, "\(policy): decoding or deallocation happened under the lock")
        }
    }

    func test_asyncLoadsAndPrefetches_neverDecodeOrDeallocate_underTheLock() async throws {
        let directory = TestDirectory()
        for index in 0..<10 { directory.write("icon\(index).png", size: 10 + index) }
        let probe = LockProbe()
        var configuration = ImageStore<ProbeImage>.Configuration(
            directories: [directory.url], decoder: ProbeDecoder(probe: probe))
        configuration.policy = .weakWithLRU(costLimit: 30, countLimit: 3, admissionCostLimit: 100)
        configuration.maximumConcurrentLoads = 1
        let store = ImageStore(configuration)
        probe.watch(store)

        for round in 0..<3 {
            for index in 0..<10 {
                _ = try await store.fetchImage(named: "icon\((index + round) % 10)")
            }
            let prefetch = store.prefetch(named: (0..<10).map { "icon\($0)" })
            await prefetch.finished()
            prefetch.cancel()
            store.handleMemoryPressure(.critical)
        }
        store.removeAll()
        probe.watch(nil)

        XCTAssertGreaterThan(probe.deallocations, 10, "the probe saw too few deallocations")
        XCTAssertEqual(probe.violations, 0, "decoding or deallocation happened under the lock")
    }
}

/// Records whether the thread that decodes a probe image, or frees one, holds the watched store's
/// lock: a critical section that decodes or frees an image would stall every other lookup.
private final class LockProbe: Sendable {
    private struct Counts: Sendable {
        var store: ImageStore<ProbeImage>?
        var violations = 0
        var deallocations = 0
    }

    private let counts = Lock(Counts())

    var violations: Int { counts.withLock { $0.violations } }
    var deallocations: Int { counts.withLock { $0.deallocations } }

    func watch(_ store: ImageStore<ProbeImage>?) {
        counts.withLock { $0.store = store }
    }

    func check(deallocating: Bool) {
        let store = counts.withLock { $0.store }
        let locked = store?.engine._isHeldByCurrentThread() == true
        counts.withLock {
            if locked { $0.violations += 1 }
            if deallocating { $0.deallocations += 1 }
        }
    }
}

private final class ProbeImage: StorableImage {
    let cost: Int
    private let probe: LockProbe

    init(cost: Int, probe: LockProbe) {
        self.cost = cost
        self.probe = probe
    }

    deinit {
        probe.check(deallocating: true)
    }
}

private struct ProbeDecoder: ImageDecoding {
    let probe: LockProbe

    func decode(_ data: Data, options: DecodeOptions) throws -> DecodeResult<ProbeImage> {
        probe.check(deallocating: false)
        return DecodeResult(image: ProbeImage(cost: data.count, probe: probe))
    }
}

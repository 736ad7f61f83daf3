import XCTest

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
            let store = ImageStore(directories: [directory.url], policy: policy, decoder: ProbeDecoder(probe: probe))
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
        let store = ImageStore(
            directories: [directory.url], policy: .weakWithLRU(costLimit: 30, countLimit: 3, admissionCostLimit: 100),
            maximumConcurrentLoads: 1, decoder: ProbeDecoder(probe: probe))
        probe.watch(store)
        // One thread at a time touches the store: the loading thread only while the test waits.
        // Polling takes the lock, and the probe cannot tell whose lock it sees, so the test first
        // sleeps past the loading thread's last steps, then checks that it is idle; a check that
        // meets the test's own poll is not counted against the store (on a loaded machine the
        // loading thread can still be finishing when the poll starts).
        let idle = {
            probe.whilePolling { store.engine._withState { $0.loadingThreads == 0 && $0.inFlight.operations.isEmpty } }
        }
        func settle() async throws {
            try await Task.sleep(nanoseconds: 30_000_000)
            XCTAssertTrue(eventually(idle))
        }

        for round in 0..<3 {
            for index in 0..<10 {
                _ = try await store.image(named: "icon\((index + round) % 10)")
                try await settle()
            }
            let prefetch = store.prefetch(named: (0..<10).map { "icon\($0)" })
            await prefetch.finished()
            try await settle()
            prefetch.cancel()
            store.handleMemoryPressure(.critical)
        }
        store.removeAll()
        probe.watch(nil)

        XCTAssertGreaterThan(probe.deallocations, 10, "the probe saw too few deallocations")
        XCTAssertEqual(probe.violations, 0, "decoding or deallocation happened under the lock")
    }
}

/// Records whether the watched store's lock is held whenever a probe image decodes or dies.
/// The test is single-threaded, so a held lock can only be the store's own critical section.
private final class LockProbe: Sendable {
    private struct Counts: Sendable {
        var store: ImageStore<ProbeImage>?
        var violations = 0
        var deallocations = 0
        /// Whether the test thread is polling the store, holding its lock itself.
        var isPolling = false
    }

    private let counts = Lock(Counts())

    var violations: Int { counts.withLock { $0.violations } }
    var deallocations: Int { counts.withLock { $0.deallocations } }

    func watch(_ store: ImageStore<ProbeImage>?) {
        counts.withLock { $0.store = store }
    }

    /// Runs the test thread's poll of the store: a lock seen held meanwhile may be the poll's.
    func whilePolling<Result>(_ poll: () -> Result) -> Result {
        counts.withLock { $0.isPolling = true }
        defer { counts.withLock { $0.isPolling = false } }
        return poll()
    }

    func check(deallocating: Bool) {
        let store = counts.withLock { $0.store }
        let locked = store?.engine._isLocked() == true
        counts.withLock {
            if locked && !$0.isPolling { $0.violations += 1 }
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

    func decode(_ data: Data, scale: Int) throws -> ProbeImage {
        probe.check(deallocating: false)
        return ProbeImage(cost: data.count, probe: probe)
    }
}

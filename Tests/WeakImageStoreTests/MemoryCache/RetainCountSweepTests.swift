import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

final class RetainCountSweepTests: XCTestCase {
    private func sweepCount(_ store: ImageStore<Bitmap>) -> Int {
        store.engine._withState { ($0.memory.storage as? RetainCountSweepStorage)?.sweepCount ?? -1 }
    }

    func test_sweep_dropsOnlyImagesNobodyElseHolds_everyIntervalLookups() throws {
        let directory = TestDirectory()
        directory.write("used.png", size: 10)
        directory.write("unused.png", size: 10)
        let store = makeStore(policy: .retainCountSweep, directories: [directory.url])
        let used = try store.loadImage(named: "used")
        let unused = WeakObserver(store.image(named: "unused"))
        XCTAssertNotNil(unused.object, "kept until the next sweep")

        for _ in 2..<RetainCountSweep.interval - 1 { _ = store.image(named: "used") }
        XCTAssertNotNil(unused.object, "no sweep before \(RetainCountSweep.interval) lookups")
        _ = store.image(named: "used")

        XCTAssertNil(unused.object)
        XCTAssertEqual(sweepCount(store), 1)
        XCTAssertEqual(store.statistics.strongCount, 1)
        XCTAssertEqual(store.statistics.evictions, 1)
        XCTAssertIdentical(store.image(named: "used"), used)
    }

    func test_concurrentLookups_startOneSweepPerInterval() throws {
        let directory = TestDirectory()
        directory.write("icon.png", size: 10)
        let store = makeStore(policy: .retainCountSweep, directories: [directory.url])
        let perThread = RetainCountSweep.interval * 25

        runConcurrently(threads: 8) { _ in
            for _ in 0..<perThread { _ = store.image(named: "icon") }
        }

        XCTAssertEqual(store.statistics.lookups, 8 * perThread)
        XCTAssertEqual(sweepCount(store), 8 * perThread / RetainCountSweep.interval)
    }
}

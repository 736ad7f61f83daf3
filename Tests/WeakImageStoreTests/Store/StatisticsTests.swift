import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

final class StatisticsTests: XCTestCase {
    func test_statistics_countEachOutcomeExactly() throws {
        let directory = TestDirectory()
        directory.write("icon.png", size: 10)
        directory.write("photo.png", size: 500)
        let store = makeStore(
            policy: .weakWithLRU(costLimit: 1000, countLimit: 10, admissionCostLimit: 100),
            directories: [directory.url]
        )

        _ = store.image(named: "icon")  // miss, decode, admitted
        _ = store.image(named: "icon")  // strong hit
        let photo = store.image(named: "photo")  // miss, decode, weak only
        _ = store.image(named: "photo.png")  // weak hit
        _ = store.image(named: "ghost")  // miss, no decode
        _ = store.image(named: "ghost")  // remembered miss
        _ = store.image(named: "../x")  // invalid: miss
        store.handleMemoryPressure(.critical)  // evicts icon

        var expected = ImageStoreStatistics()
        expected.lookups = 7
        expected.strongHits = 1
        expected.weakHits = 1
        expected.misses = 5
        expected.decodes = 2
        expected.evictions = 1
        // The icon died when the warning evicted it: its weak entry went with it.
        expected.weakCount = 1
        expected.liveCost = 500
        expected.liveCount = 1
        expected.peakLiveCost = 510
        expected.animationFrameBudget = ImageStore<Bitmap>.defaultAnimationFrameBudget
        XCTAssertEqual(store.statistics, expected)
        XCTAssertNotNil(photo)
    }
}

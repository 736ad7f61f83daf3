import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

/// `.weakWithLRU` keeps small images between uses, bounded by cost and count; large ones never.
final class SmallImageLRUTests: XCTestCase {
    func test_smallImage_survivesItsLastHolder_largeImageDoesNot() throws {
        let directory = TestDirectory()
        directory.write("icon.png", size: 100)
        directory.write("photo.png", size: 101)
        let store = makeStore(
            policy: .weakWithLRU(costLimit: 1000, countLimit: 10, admissionCostLimit: 100),
            directories: [directory.url]
        )
        let icon = WeakObserver(store.image(named: "icon"))
        let photo = WeakObserver(store.image(named: "photo"))

        XCTAssertNotNil(icon.object, "an image at the admission limit is kept")
        XCTAssertNil(photo.object, "an image above the admission limit is not")
        XCTAssertEqual(store.statistics.strongCount, 1)
        XCTAssertEqual(store.statistics.strongCost, 100)
        _ = store.image(named: "icon")
        XCTAssertEqual(store.statistics.strongHits, 1)
    }

    func test_lru_isBoundedByCount_andEvictsTheLeastRecentlyUsed() throws {
        let directory = TestDirectory()
        for index in 0..<4 { directory.write("icon\(index).png", size: 10) }
        let store = makeStore(
            policy: .weakWithLRU(costLimit: 1000, countLimit: 3, admissionCostLimit: 100),
            directories: [directory.url]
        )
        for index in 0..<3 { _ = store.image(named: "icon\(index)") }
        _ = store.image(named: "icon0")  // a hit refreshes icon0: icon1 is now the oldest

        _ = store.image(named: "icon3")

        XCTAssertEqual(store.statistics.strongCount, 3)
        XCTAssertEqual(store.statistics.evictions, 1)
        _ = store.image(named: "icon0")
        XCTAssertEqual(store.statistics.decodes, 4, "icon0 stayed cached")
        _ = store.image(named: "icon1")
        XCTAssertEqual(store.statistics.decodes, 5, "icon1 was the one evicted")
    }

    func test_lru_isBoundedByCost() throws {
        let directory = TestDirectory()
        for index in 0..<10 { directory.write("icon\(index).png", size: 60) }
        let store = makeStore(
            policy: .weakWithLRU(costLimit: 200, countLimit: 100, admissionCostLimit: 100),
            directories: [directory.url]
        )

        for index in 0..<10 { _ = store.image(named: "icon\(index)") }

        XCTAssertEqual(store.statistics.strongCost, 180)
        XCTAssertEqual(store.statistics.strongCount, 3)
        XCTAssertEqual(store.statistics.evictions, 7)
    }

    func test_weakHit_readmitsASmallImageIntoTheLRU() throws {
        let directory = TestDirectory()
        directory.write("held.png", size: 10)
        directory.write("filler.png", size: 10)
        let store = makeStore(
            policy: .weakWithLRU(costLimit: 1000, countLimit: 1, admissionCostLimit: 100),
            directories: [directory.url]
        )
        let held = try store.loadImage(named: "held")
        _ = store.image(named: "filler")  // evicts held from the LRU; held lives on in our hands

        XCTAssertIdentical(store.image(named: "held"), held)

        XCTAssertEqual(store.statistics.weakHits, 1)
        XCTAssertEqual(
            store.engine._withState {
                ($0.memory.storage as? WeakWithLRUStorage)?.recentlyUsed.keysByRecency.compactMap(
                    \.filePath?.lastPathComponent)
            }, ["held.png"])
    }
}

extension String {
    fileprivate var lastPathComponent: String { String(split(separator: "/").last ?? "") }
}

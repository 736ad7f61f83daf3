import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

final class LRUCacheTests: XCTestCase {
    private func bitmap(cost: Int) -> CachedImage {
        CachedImage(Bitmap(width: cost, height: 1, format: .gray8, pixels: [UInt8](repeating: 0, count: cost)))
    }

    func test_hit_makesTheEntryTheMostRecent() {
        var cache = LRUCache<Int>(costLimit: 100, countLimit: 10)
        var evicted: [CachedImage] = []
        for key in 1...3 { cache.insert(bitmap(cost: 1), for: key, evicted: &evicted) }

        _ = cache.image(for: 1)

        XCTAssertEqual(cache.keysByRecency, [1, 3, 2])
        cache._checkInvariants()
    }

    func test_insert_evictsLeastRecentlyUsed_untilBothLimitsHold() {
        var cache = LRUCache<Int>(costLimit: 10, countLimit: 3)
        var evicted: [CachedImage] = []
        for key in 1...3 { cache.insert(bitmap(cost: 3), for: key, evicted: &evicted) }
        XCTAssertTrue(evicted.isEmpty)

        cache.insert(bitmap(cost: 5), for: 4, evicted: &evicted)  // cost 14 > 10, count 4 > 3

        XCTAssertEqual(cache.keysByRecency, [4, 3])
        XCTAssertEqual(evicted.count, 2)
        XCTAssertEqual(cache.totalCost, 8)
        cache._checkInvariants()
    }

    func test_imageCostlierThanTheLimit_isNotInserted() {
        var cache = LRUCache<Int>(costLimit: 10, countLimit: 3)
        var evicted: [CachedImage] = []
        cache.insert(bitmap(cost: 5), for: 1, evicted: &evicted)

        cache.insert(bitmap(cost: 11), for: 2, evicted: &evicted)

        XCTAssertEqual(cache.keysByRecency, [1], "an oversized image must not flush the cache")
        XCTAssertTrue(evicted.isEmpty)
    }

    func test_reinsertingAKey_replacesItsImageAndCost() {
        var cache = LRUCache<Int>(costLimit: 100, countLimit: 10)
        var evicted: [CachedImage] = []
        cache.insert(bitmap(cost: 5), for: 1, evicted: &evicted)

        cache.insert(bitmap(cost: 8), for: 1, evicted: &evicted)

        XCTAssertEqual(cache.count, 1)
        XCTAssertEqual(cache.totalCost, 8)
        XCTAssertEqual(evicted.count, 1)
        cache._checkInvariants()
    }

    func test_trim_andRemoveAll_handBackEveryEvictedImage() {
        var cache = LRUCache<Int>(costLimit: 100, countLimit: 10)
        var evicted: [CachedImage] = []
        for key in 1...6 { cache.insert(bitmap(cost: 10), for: key, evicted: &evicted) }

        cache.trim(toCost: 30, count: 10, evicted: &evicted)
        XCTAssertEqual(cache.keysByRecency, [6, 5, 4])
        cache.removeAll(evicted: &evicted)

        XCTAssertEqual(evicted.count, 6)
        XCTAssertEqual(cache.count, 0)
        XCTAssertEqual(cache.totalCost, 0)
        cache._checkInvariants()
    }

    func test_randomOperations_keepTheInvariants_andMatchAReferenceModel() {
        var cache = LRUCache<Int>(costLimit: 200, countLimit: 12)
        var model: [(key: Int, cost: Int)] = []  // most recent first
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<5000 {
            let key = Int.random(in: 0..<30, using: &generator)
            var evicted: [CachedImage] = []
            if Bool.random(using: &generator) {
                let hit = cache.image(for: key) != nil
                XCTAssertEqual(hit, model.contains { $0.key == key })
                if let index = model.firstIndex(where: { $0.key == key }) {
                    model.insert(model.remove(at: index), at: 0)
                }
            } else {
                let cost = Int.random(in: 1...40, using: &generator)
                cache.insert(bitmap(cost: cost), for: key, evicted: &evicted)
                model.removeAll { $0.key == key }
                model.insert((key, cost), at: 0)
                while model.reduce(0, { $0 + $1.cost }) > 200 || model.count > 12 { model.removeLast() }
            }
            cache._checkInvariants()
            XCTAssertEqual(cache.keysByRecency, model.map(\.key))
        }
    }
}

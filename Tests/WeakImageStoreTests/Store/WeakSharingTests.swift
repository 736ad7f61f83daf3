import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

/// Under `.weak` and `.weakWithLRU` an image is shared while held and freed when nobody holds it.
final class WeakSharingTests: XCTestCase {
    private let lru = CachePolicy.weakWithLRU(costLimit: 1000, countLimit: 10, admissionCostLimit: 100)

    func test_image_isReleased_whenLastHolderDropsIt() throws {
        for policy in weakPolicies {
            let directory = TestDirectory()
            directory.write("photo.png", size: 500)  // above the admission limit: never held strongly
            let store = makeStore(policy: policy, directories: [directory.url])
            var holder: Bitmap? = try store.loadImage(named: "photo")
            let observer = WeakObserver(holder)

            holder = nil

            XCTAssertNil(observer.object, "\(policy): the store kept a large image alive")
            XCTAssertNotNil(store.image(named: "photo"))
            XCTAssertEqual(store.statistics.decodes, 2, "\(policy): a freed image decodes again")
        }
    }

    func test_heldImage_isReturned_afterLRUEvictionMemoryPressureAndRemoveAll() throws {
        for policy in weakPolicies {
            let directory = TestDirectory()
            directory.write("icon.png", size: 50)
            for index in 0..<20 { directory.write("other\(index).png", size: 90) }
            let store = makeStore(policy: policy, directories: [directory.url])
            let held = try store.loadImage(named: "icon")

            for index in 0..<20 { _ = store.image(named: "other\(index)") }  // pushes icon out of the LRU
            XCTAssertIdentical(store.image(named: "icon"), held, "\(policy) after eviction")
            store.handleMemoryPressure(.warning)
            XCTAssertIdentical(store.image(named: "icon"), held, "\(policy) after a warning")
            store.handleMemoryPressure(.critical)
            XCTAssertIdentical(store.image(named: "icon"), held, "\(policy) after critical pressure")
            store.removeAll()
            XCTAssertIdentical(store.image(named: "icon"), held, "\(policy) after removeAll")
            XCTAssertEqual(store.statistics.decodes, 21, "\(policy): the held icon was decoded once")
        }
    }

    func test_deadEntries_arePruned_soTheTableTracksLiveImages() throws {
        let directory = TestDirectory()
        for index in 0..<300 { directory.write("photo\(index).png", size: 500) }
        let store = makeStore(policy: .weak, directories: [directory.url])
        let kept = try (0..<5).map { try store.loadImage(named: "photo\($0)") }

        for index in 5..<300 { _ = store.image(named: "photo\(index)") }  // each dies at once

        // Amortized pruning: never more than twice the live entries plus the minimum interval.
        XCTAssertLessThanOrEqual(store.statistics.weakCount, 2 * kept.count + 32)
        store.handleMemoryPressure(.warning)
        XCTAssertEqual(store.statistics.weakCount, kept.count, "a warning prunes every dead entry")
    }

    func test_neverTwoLiveInstancesOfOneKey_underWeakPolicies() throws {
        for policy in weakPolicies {
            let directory = TestDirectory()
            directory.write("icon.png", size: 40)
            let store = makeStore(policy: policy, directories: [directory.url])
            var seen: [Bitmap] = []

            for round in 0..<50 {
                seen.append(try store.loadImage(named: "icon"))
                if round % 7 == 0 { store.handleMemoryPressure(.critical) }
                if round % 11 == 0 { store.removeAll() }
            }

            XCTAssertTrue(seen.allSatisfy { $0 === seen[0] }, "\(policy) made a second live instance")
        }
    }
}

import Foundation
import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

/// Memory is accounted and given back alike for every source: the live-byte ledger, the live-byte
/// budget and memory pressure. Each test loops over ``SourceKind/allCases``.
final class RequestMemoryMatrixTests: XCTestCase {
    private static let lru = CachePolicy.weakWithLRU(costLimit: 1000, countLimit: 10, admissionCostLimit: 100)

    func test_liveCost_followsEachSourcesImages_toTheByte() {
        for kind in SourceKind.allCases {
            let directory = TestDirectory()
            let icon = TestSource(kind, name: "icon", size: 10, fill: 1, in: directory)
            let photo = TestSource(kind, name: "photo", size: 500, fill: 2, in: directory)
            let store = makeStore(policy: Self.lru, directories: [directory.url])
            let baseline = Bitmap.memory.liveBytes

            _ = store.image(for: icon.request)  // only the LRU holds it
            var held = store.image(for: photo.request)  // only the test holds it

            XCTAssertIdentical(store.image(for: photo.request), held, "\(kind)")
            XCTAssertEqual(store.statistics.liveCost, 510, "\(kind)")
            XCTAssertEqual(store.statistics.liveCount, 2, "\(kind)")
            XCTAssertEqual(store.statistics.peakLiveCost, 510, "\(kind)")
            XCTAssertEqual(Bitmap.memory.liveBytes - baseline, 510, "\(kind)")

            held = nil

            XCTAssertEqual(store.statistics.liveCost, 10, "\(kind): the photo outlived its last holder")
            XCTAssertEqual(store.statistics.liveCount, 1, "\(kind)")
            XCTAssertEqual(store.statistics.weakCount, 1, "\(kind)")
            XCTAssertEqual(Bitmap.memory.liveBytes - baseline, 10, "\(kind)")
            XCTAssertNil(held)
        }
    }

    func test_liveCost_countsThumbnailsApart_forEverySource() throws {
        for kind in SourceKind.allCases {
            let directory = TestDirectory()
            let photo = TestSource(kind, name: "photo", size: 1_000, fill: 1, in: directory)
            let store = makeStore(
                policy: .weak, directories: [directory.url], decoder: FakeDecoder(makesThumbnails: true))

            let full = try store.loadImage(for: photo.request)
            var thumbnail: Bitmap? = try store.loadImage(for: photo.thumbnail(100))
            XCTAssertEqual(store.statistics.liveCost, 1_100, "\(kind)")

            thumbnail = nil

            XCTAssertEqual(store.statistics.liveCost, 1_000, "\(kind)")
            XCTAssertEqual(store.statistics.liveCount, 1, "\(kind)")
            XCTAssertEqual(full.width, 1_000)
            XCTAssertNil(thumbnail)
        }
    }

    func test_budget_makesTheLRUGiveWay_toImagesInUse_forEverySource() {
        for kind in SourceKind.allCases {
            let directory = TestDirectory()
            let icons = (0..<3).map {
                TestSource(kind, name: "icon\($0)", size: 50, fill: UInt8(10 + $0), in: directory)
            }
            let photo = TestSource(kind, name: "photo", size: 200, fill: 1, in: directory)
            let store = makeStore(
                policy: .weakWithBudgetedLRU(
                    liveCostLimit: 300, costLimit: 1000, countLimit: 10, admissionCostLimit: 100),
                directories: [directory.url])
            for icon in icons { _ = store.image(for: icon.request) }
            XCTAssertEqual(store.statistics.strongCount, 3, "\(kind)")
            XCTAssertEqual(store.statistics.liveCost, 150, "\(kind)")

            let held = store.image(for: photo.request)  // 350 live: the oldest icon gives way

            XCTAssertEqual(store.statistics.liveCost, 300, "\(kind)")
            XCTAssertEqual(store.statistics.strongCount, 2, "\(kind)")
            XCTAssertEqual(store.statistics.evictions, 1, "\(kind)")
            XCTAssertEqual(store.statistics.budgetOverruns, 0, "\(kind)")
            XCTAssertNil(store.cachedImage(for: icons[0].request), "\(kind): the oldest icon stayed")
            XCTAssertNotNil(store.cachedImage(for: icons[2].request), "\(kind): the newest icon went")
            XCTAssertNotNil(held)
        }
    }

    func test_memoryPressure_dropsWhatTheStoreHolds_andKeepsWhatIsInUse_forEverySource() throws {
        for kind in SourceKind.allCases {
            let directory = TestDirectory()
            let icons = (0..<4).map {
                TestSource(kind, name: "icon\($0)", size: 10, fill: UInt8(10 + $0), in: directory)
            }
            let onScreen = TestSource(kind, name: "onScreen", size: 20, fill: 1, in: directory)
            let store = makeStore(
                policy: .weakWithLRU(costLimit: 1000, countLimit: 4, admissionCostLimit: 100),
                directories: [directory.url])
            let held = try store.loadImage(for: onScreen.request)
            for icon in icons { _ = store.image(for: icon.request) }  // the LRU now holds the 4 icons only
            XCTAssertEqual(store.statistics.strongCount, 4, "\(kind)")

            store.handleMemoryPressure(.warning)  // half the count limit: the 2 most recent icons stay
            XCTAssertEqual(store.statistics.strongCount, 2, "\(kind)")
            XCTAssertNil(store.cachedImage(for: icons[1].request), "\(kind)")
            XCTAssertNotNil(store.cachedImage(for: icons[3].request), "\(kind)")
            store.handleMemoryPressure(.critical)

            XCTAssertEqual(store.statistics.strongCount, 0, "\(kind)")
            XCTAssertNil(store.cachedImage(for: icons[3].request), "\(kind)")
            XCTAssertIdentical(
                try store.loadImage(for: onScreen.request), held, "\(kind): an image in use was decoded again")
            XCTAssertEqual(store.statistics.decodes, 5, "\(kind)")
            XCTAssertEqual(store.statistics.liveCost, 20, "\(kind)")
            XCTAssertEqual(onScreen.provider?.calls ?? 1, 1, "\(kind)")
        }
    }
}

import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

final class MemoryPressureTests: XCTestCase {
    func test_warning_trimsTheLRUToHalfItsLimits() throws {
        let directory = TestDirectory()
        for index in 0..<10 { directory.write("icon\(index).png", size: 10) }
        let store = makeStore(
            policy: .weakWithLRU(costLimit: 100, countLimit: 10, admissionCostLimit: 100),
            directories: [directory.url]
        )
        for index in 0..<10 { _ = store.image(named: "icon\(index)") }
        XCTAssertEqual(store.statistics.strongCost, 100)

        store.handleMemoryPressure(.warning)

        XCTAssertEqual(store.statistics.strongCost, 50)
        XCTAssertEqual(store.statistics.strongCount, 5)
        XCTAssertEqual(store.statistics.evictions, 5)
        _ = store.image(named: "icon9")
        XCTAssertEqual(store.statistics.decodes, 10, "the most recent half stays")
    }

    func test_critical_dropsEveryStrongReference_underEveryPolicy() throws {
        for policy in allPolicies {
            let directory = TestDirectory()
            directory.write("icon.png", size: 10)
            let store = makeStore(policy: policy, directories: [directory.url])
            let icon = WeakObserver(store.image(named: "icon"))

            store.handleMemoryPressure(.critical)

            XCTAssertNil(icon.object, "\(policy) still holds the icon")
            XCTAssertEqual(store.statistics.strongCount, 0, "\(policy)")
            XCTAssertEqual(store.statistics.strongCost, 0, "\(policy)")
        }
    }

    func test_warning_keepsEverythingUnderStrong_andSweepsUnderRetainCountSweep() throws {
        let directory = TestDirectory()
        directory.write("unused.png", size: 10)
        directory.write("used.png", size: 10)
        let strong = makeStore(policy: .strong, directories: [directory.url])
        let sweep = makeStore(policy: .retainCountSweep, directories: [directory.url])
        _ = strong.image(named: "unused")
        _ = sweep.image(named: "unused")
        let used = try sweep.loadImage(named: "used")

        strong.handleMemoryPressure(.warning)
        sweep.handleMemoryPressure(.warning)

        XCTAssertEqual(strong.statistics.strongCount, 1, "ImageAssets ignores warnings")
        XCTAssertEqual(sweep.statistics.strongCount, 1, "only the image in use is left")
        XCTAssertIdentical(sweep.image(named: "used"), used)
    }

    func test_imagesInUse_stayFindable_afterCriticalPressure() throws {
        for policy in weakPolicies {
            let directory = TestDirectory()
            directory.write("icon.png", size: 10)
            let store = makeStore(policy: policy, directories: [directory.url])
            let onScreen = try store.loadImage(named: "icon")

            store.handleMemoryPressure(.critical)

            XCTAssertIdentical(store.image(named: "icon"), onScreen, "\(policy)")
            XCTAssertEqual(store.statistics.decodes, 1, "\(policy)")
        }
    }
}

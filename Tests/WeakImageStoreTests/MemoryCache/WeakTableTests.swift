import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

final class WeakTableTests: XCTestCase {
    func test_image_isFoundWhileAlive_andGoneAfter() {
        var table = WeakTable<String>()
        var image: Bitmap? = Bitmap(width: 1, height: 1, format: .gray8, pixels: [0])
        table.insert(CachedImage(image!), for: "a")

        XCTAssertIdentical(table.image(for: "a")?.object, image)
        XCTAssertEqual(table.image(for: "a")?.cost, 1)
        image = nil
        XCTAssertNil(table.image(for: "a"))
    }

    func test_pruning_isAmortized_andKeepsLiveEntries() {
        var table = WeakTable<Int>()
        let live = (0..<50).map { _ in Bitmap(width: 1, height: 1, format: .gray8, pixels: [0]) }
        for (key, image) in live.enumerated() { table.insert(CachedImage(image), for: key) }

        for key in 50..<10_000 {
            table.insert(CachedImage(Bitmap(width: 1, height: 1, format: .gray8, pixels: [0])), for: key)
            XCTAssertLessThanOrEqual(table.count, 2 * live.count + 32 + 1)
        }
        table.pruneDeadEntries()

        XCTAssertEqual(table.count, live.count)
        for (key, image) in live.enumerated() { XCTAssertIdentical(table.image(for: key)?.object, image) }
    }
}

final class WeakTableDeathTests: XCTestCase {
    func test_removeEntry_removesWatchedEntry_whenTokenMatches() {
        var table = WeakTable<String>()
        let image = Bitmap(width: 1, height: 1, format: .gray8, pixels: [0])
        table.insert(CachedImage(image), for: "a", token: DeathToken(value: 1))

        table.removeEntry(for: "a", ifToken: DeathToken(value: 1))

        XCTAssertEqual(table.count, 0)
        XCTAssertNil(table.image(for: "a"))
    }

    func test_removeEntry_keepsNewerEntry_whenOldImagesReportArrivesLate() {
        var table = WeakTable<String>()
        table.insert(
            CachedImage(Bitmap(width: 1, height: 1, format: .gray8, pixels: [0])), for: "a", token: DeathToken(value: 1)
        )
        let newer = Bitmap(width: 2, height: 1, format: .gray8, pixels: [0, 0])
        table.insert(CachedImage(newer), for: "a", token: DeathToken(value: 2))

        table.removeEntry(for: "a", ifToken: DeathToken(value: 1))

        XCTAssertEqual(table.count, 1)
        XCTAssertIdentical(table.image(for: "a")?.object, newer)
    }

    func test_pruning_leavesWatchedEntries_toTheirDeathReports() {
        var table = WeakTable<Int>()
        table.insert(CachedImage(SilentImage(cost: 1)), for: 1)
        table.insert(CachedImage(SilentImage(cost: 1)), for: 2, token: DeathToken(value: 5))

        table.pruneDeadEntries()

        XCTAssertEqual(table.count, 1, "the dead unwatched entry is pruned, the watched one waits for its report")
        table.removeEntry(for: 2, ifToken: DeathToken(value: 5))
        XCTAssertEqual(table.count, 0)
    }
}

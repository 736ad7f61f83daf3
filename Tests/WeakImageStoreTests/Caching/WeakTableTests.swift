import XCTest

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

import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

final class BitmapTests: XCTestCase {
    func test_rgba8_expandsGrayAndGrayAlpha() {
        let gray = Bitmap(width: 2, height: 1, format: .gray8, pixels: [10, 200])
        XCTAssertEqual(gray.rgba8(), [10, 10, 10, 255, 200, 200, 200, 255])

        let grayAlpha = Bitmap(width: 1, height: 1, format: .grayAlpha8, pixels: [7, 9])
        XCTAssertEqual(grayAlpha.rgba8(), [7, 7, 7, 9])
    }

    func test_cost_isTheByteCountOfThePixels() {
        let bitmap = Bitmap(width: 3, height: 2, scale: 2, format: .rgba8, pixels: .init(repeating: 0, count: 24))
        XCTAssertEqual(bitmap.cost, 24)
        XCTAssertEqual(bitmap.pointSize.width, 1.5)
    }

    func test_memory_countsLiveBitmapsExactly() {
        let before = Bitmap.memory
        var bitmap: Bitmap? = Bitmap(width: 10, height: 10, format: .gray8, pixels: .init(repeating: 0, count: 100))
        let during = Bitmap.memory
        XCTAssertNotNil(bitmap)
        bitmap = nil
        let after = Bitmap.memory
        // Other tests may run in parallel processes, never threads of this one, so the deltas are exact.
        XCTAssertEqual(during.liveBytes - before.liveBytes, 100)
        XCTAssertEqual(during.liveCount - before.liveCount, 1)
        XCTAssertEqual(after.liveBytes, before.liveBytes)
        XCTAssertGreaterThanOrEqual(during.peakBytes, during.liveBytes)
    }
}

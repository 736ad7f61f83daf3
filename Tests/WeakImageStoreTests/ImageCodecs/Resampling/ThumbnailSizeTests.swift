import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

/// The one output-size rule: `s = m / max(w, h)`, `out = max(1, floor(side·s + 0.5))`.
final class ThumbnailSizeTests: XCTestCase {
    /// The reduced size as `[width, height]`, or `nil`.
    private func size(_ width: Int, _ height: Int, _ maxPixelSize: Int) -> [Int]? {
        ThumbnailSize(width: width, height: height, maxPixelSize: maxPixelSize).map { [$0.width, $0.height] }
    }

    func test_size_keepsTheAspectRatio_andMakesTheLongestSideExactlyMaxPixelSize() {
        XCTAssertEqual(size(3000, 2000, 256), [256, 171])
        XCTAssertEqual(size(2000, 3000, 256), [171, 256])
        XCTAssertEqual(size(1001, 333, 100), [100, 33])
        XCTAssertEqual(size(6000, 4000, 1024), [1024, 683])
    }

    func test_size_roundsHalfUp() {
        // 5 · 3/6 = 2.5 → 3; 1 · 2/4 = 0.5 → 1
        XCTAssertEqual(size(6, 5, 3), [3, 3])
        XCTAssertEqual(size(4, 1, 2), [2, 1])
        // 3 · 2/4 = 1.5 → 2
        XCTAssertEqual(size(4, 3, 2), [2, 2])
    }

    func test_size_isNeverBelowOnePixel_onExtremeAspectRatios() {
        XCTAssertEqual(size(64, 4000, 1), [1, 1])
        XCTAssertEqual(size(64, 4000, 16), [1, 16])
        XCTAssertEqual(size(64, 4000, 333), [5, 333])
    }

    func test_size_isNil_whenMaxPixelSizeIsAtLeastTheLongestSide() {
        XCTAssertNil(size(300, 200, 300))
        XCTAssertNil(size(300, 200, 10_000))
        XCTAssertEqual(size(300, 200, 299), [299, 199])
    }
}

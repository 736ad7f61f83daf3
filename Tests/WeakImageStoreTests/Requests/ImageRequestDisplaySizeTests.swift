import Foundation
import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

/// `withMaxPixelSize(fitting:displayScale:)`: points times the screen's scale, longest side,
/// rounded up, never 0.
final class ImageRequestDisplaySizeTests: XCTestCase {
    private func maxPixelSize(_ width: CGFloat, _ height: CGFloat, scale: CGFloat) -> Int? {
        ImageRequest.named("photo")
            .withMaxPixelSize(fitting: CGSize(width: width, height: height), displayScale: scale)
            .maxPixelSize
    }

    func test_maxPixelSize_isTheLongestSideInPixels() {
        XCTAssertEqual(maxPixelSize(44, 44, scale: 3), 132)
        XCTAssertEqual(maxPixelSize(320, 180, scale: 2), 640)
        XCTAssertEqual(maxPixelSize(180, 320, scale: 2), 640)
        XCTAssertEqual(maxPixelSize(100, 50, scale: 1), 100)
    }

    func test_fractionalPixels_roundUp() {
        XCTAssertEqual(maxPixelSize(44, 44, scale: 2.608), 115)  // 114.752
        XCTAssertEqual(maxPixelSize(10.1, 3, scale: 2), 21)  // 20.2
    }

    func test_emptySize_asksForOnePixel() {
        XCTAssertEqual(maxPixelSize(0, 0, scale: 3), 1)
        XCTAssertEqual(maxPixelSize(0.1, 0.1, scale: 1), 1)
    }

    func test_hugeSize_isClamped() {
        XCTAssertEqual(maxPixelSize(1e30, 1, scale: 3), Int(Int32.max))
    }

    func test_source_isKept_andOnlyTheSizeChanges() {
        let request = ImageRequest.file("/images/photo.png", maxPixelSize: 999)

        let sized = request.withMaxPixelSize(fitting: CGSize(width: 50, height: 20), displayScale: 2)

        XCTAssertEqual(sized, .file("/images/photo.png", maxPixelSize: 100))
    }
}

import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

final class ScaleOrderTests: XCTestCase {
    func test_screenScale_comesFirst_thenLarger_thenSmaller() {
        XCTAssertEqual(ScaleOrder.screenFirst(displayScale: 3), [3, 2, 1])
        XCTAssertEqual(ScaleOrder.screenFirst(displayScale: 2), [2, 3, 1])
        XCTAssertEqual(ScaleOrder.screenFirst(displayScale: 1), [1, 2, 3])
    }

    func test_fractionalScale_roundsToTheNearestAssetScale() {
        // UIKit reports whole scales, but a native scale such as 2.608 (an iPhone Plus) must work.
        XCTAssertEqual(ScaleOrder.screenFirst(displayScale: 2.608), [3, 2, 1])
        XCTAssertEqual(ScaleOrder.screenFirst(displayScale: 1.5), [2, 3, 1])
        XCTAssertEqual(ScaleOrder.screenFirst(displayScale: 0.5), [1, 2, 3])
    }

    func test_scaleAboveTheLargestAsset_triesEveryAssetBelowIt() {
        XCTAssertEqual(ScaleOrder.screenFirst(displayScale: 4), [4, 3, 2, 1])
    }

    func test_unknownScale_isTreatedAs2x() {
        for scale in [0, -1, 0.25, .nan, .infinity, 100] {
            XCTAssertEqual(ScaleOrder.screenFirst(displayScale: scale), [2, 3, 1], "display scale \(scale)")
        }
    }

    func test_everyOrder_isValidForTheResolver() {
        // The resolver refuses an empty list or a scale outside 1...16; a repeat would try a file twice.
        for scale in stride(from: -1.0, through: 20, by: 0.25) {
            let order = ScaleOrder.screenFirst(displayScale: scale)
            XCTAssertFalse(order.isEmpty)
            XCTAssertEqual(Set(order).count, order.count, "display scale \(scale)")
            XCTAssertTrue(order.allSatisfy { (1...ImageName.maximumScale).contains($0) }, "display scale \(scale)")
        }
    }
}

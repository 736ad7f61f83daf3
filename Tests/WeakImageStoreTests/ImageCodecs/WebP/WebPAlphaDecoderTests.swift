import XCTest

@testable import ImageCodecs

/// The ALPH chunk's header and filters, on planes small enough to check by hand.
final class WebPAlphaDecoderTests: XCTestCase {
    private func decode(_ payload: [UInt8], width: Int, height: Int) throws -> [UInt8] {
        try payload.withUnsafeBytes {
            try WebPAlphaDecoder.decode($0, width: width, height: height, tableByteLimit: 1 << 20)
        }
    }

    func test_rawAlpha_unfiltersEachFilter() throws {
        let residuals: [UInt8] = [10, 1, 2, 3, 250, 6]
        XCTAssertEqual(try decode([0x00] + residuals, width: 3, height: 2), residuals)
        // Horizontal: left neighbour; a row's first from the one above.
        XCTAssertEqual(try decode([0x04] + residuals, width: 3, height: 2), [10, 11, 13, 13, 7, 13])
        // Vertical: the one above; the first row from the left.
        XCTAssertEqual(try decode([0x08] + residuals, width: 3, height: 2), [10, 11, 13, 13, 5, 19])
        // Gradient: clamp(left + above − above-left); the first row from the left.
        XCTAssertEqual(try decode([0x0C] + residuals, width: 3, height: 2), [10, 11, 13, 13, 8, 16])
    }

    func test_preprocessingFlag_changesNothing() throws {
        XCTAssertEqual(try decode([0x10, 1, 2, 3], width: 3, height: 1), [1, 2, 3])
    }

    func test_badHeaders_andShortData_throw() {
        XCTAssertThrowsError(try decode([0x02, 0, 0], width: 1, height: 1)) {
            XCTAssertEqual($0 as? WebPError, .badAlphaHeader(byte: 0x02))
        }
        XCTAssertThrowsError(try decode([0x40, 0], width: 1, height: 1)) {
            XCTAssertEqual($0 as? WebPError, .badAlphaHeader(byte: 0x40))
        }
        XCTAssertThrowsError(try decode([0x20, 0], width: 1, height: 1)) {
            XCTAssertEqual($0 as? WebPError, .badAlphaHeader(byte: 0x20))
        }
        XCTAssertThrowsError(try decode([0x00, 1, 2], width: 2, height: 2)) {
            XCTAssertEqual($0 as? WebPError, .alphaDataTooShort(expected: 4, available: 2))
        }
        XCTAssertThrowsError(try decode([], width: 2, height: 2)) {
            XCTAssertEqual($0 as? WebPError, .alphaDataTooShort(expected: 4, available: 0))
        }
    }
}

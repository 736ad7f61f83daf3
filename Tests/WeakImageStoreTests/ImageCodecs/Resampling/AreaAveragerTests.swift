import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

/// Exact area averaging on tiny hand-computed cases.
final class AreaAveragerTests: XCTestCase {
    /// Averages `rows` (each `width` pixels in `format`) down to `outputWidth` × `outputHeight`.
    private func average(
        _ rows: [[UInt8]], width: Int, format: PixelFormat, to outputWidth: Int, _ outputHeight: Int
    ) -> [UInt8] {
        var output = [UInt8](repeating: 0xEE, count: outputWidth * outputHeight * format.bytesPerPixel)
        output.withUnsafeMutableBufferPointer { buffer in
            let averager = AreaAverager(
                sourceWidth: width, sourceHeight: rows.count, outputWidth: outputWidth, outputHeight: outputHeight,
                format: format, into: buffer.baseAddress!
            )
            for row in rows {
                row.withUnsafeBufferPointer { averager.addRow($0.baseAddress!) }
            }
            XCTAssertTrue(averager.isComplete)
        }
        return output
    }

    func test_threePixels_toTwo_weighTheMiddlePixelHalfEach() {
        // [0, 255, 0] → 2 px: each covers 1.5 pixels, half of the middle one: 127.5 / 1.5 = 85
        XCTAssertEqual(average([[0, 255, 0]], width: 3, format: .gray8, to: 2, 1), [85, 85])
    }

    func test_fractionalCoverage_onBothAxes() {
        // 3 × 3 → 2 × 2: the top-left output covers 1 + 0.5 + 0.5 + 0.25 of the 9 pixels
        let rows: [[UInt8]] = [[90, 0, 0], [0, 0, 0], [0, 0, 0]]
        XCTAssertEqual(average(rows, width: 3, format: .gray8, to: 2, 2), [40, 0, 0, 0])  // 90 / 2.25
        let centre: [[UInt8]] = [[0, 0, 0], [0, 225, 0], [0, 0, 0]]
        XCTAssertEqual(average(centre, width: 3, format: .gray8, to: 2, 2), [25, 25, 25, 25])  // 225·0.25 / 2.25
    }

    func test_roundsHalfUp() {
        // (1 + 2) / 2 = 1.5 → 2; (2 + 3) / 2 = 2.5 → 3
        XCTAssertEqual(average([[1, 2, 2, 3]], width: 4, format: .gray8, to: 2, 1), [2, 3])
    }

    func test_transparentPixelsColor_neverBleeds() {
        // Opaque red next to fully transparent, vivid green: the average is half-transparent red.
        let row: [UInt8] = [255, 0, 0, 255, 0, 255, 0, 0]
        XCTAssertEqual(average([row], width: 2, format: .rgba8, to: 1, 1), [255, 0, 0, 128])
    }

    func test_fullyTransparentOutput_hasZeroColor() {
        let row: [UInt8] = [200, 100, 50, 0, 10, 20, 30, 0]
        XCTAssertEqual(average([row], width: 2, format: .rgba8, to: 1, 1), [0, 0, 0, 0])
    }

    func test_grayAlpha_isAveragedPremultiplied() {
        // White at alpha 255 and black-but-transparent white: premultiplied (255 + 0) / 2,
        // alpha 127.5 → 128; straight 128 · 255 / 128 → 255.
        let row: [UInt8] = [255, 255, 255, 0]
        XCTAssertEqual(average([row], width: 2, format: .grayAlpha8, to: 1, 1), [255, 128])
    }

    func test_outputRows_areWrittenAsSoonAsTheirLastSourceRowArrives() {
        // Given: 4 rows to 2 — output row 0 is complete after source row 1
        var output = [UInt8](repeating: 0xEE, count: 2)
        output.withUnsafeMutableBufferPointer { buffer in
            let averager = AreaAverager(
                sourceWidth: 1, sourceHeight: 4, outputWidth: 1, outputHeight: 2, format: .gray8,
                into: buffer.baseAddress!
            )
            // When
            for value: UInt8 in [10, 20] { [value].withUnsafeBufferPointer { averager.addRow($0.baseAddress!) } }
            // Then
            XCTAssertEqual(averager.outputRowsWritten, 1)
            XCTAssertEqual(buffer[0], 15)
            XCTAssertEqual(buffer[1], 0xEE, "the second row must not be written yet")
            XCTAssertFalse(averager.isComplete)
        }
    }

    func test_sameSize_copiesOpaquePixels() {
        let row: [UInt8] = [1, 2, 3, 255, 250, 6, 7, 255]
        XCTAssertEqual(average([row], width: 2, format: .rgba8, to: 2, 1), row)
    }

    func test_manyWhiteRowsPerOutputRow_doNotOverflowTheColumnSums() {
        // 257 whole rows of 255 per output row is the most 16-bit sums hold (65 535); 258 and
        // more are summed in 32 bits. Either way white stays white.
        for rowsPerOutputRow in [257, 258, 600] {
            let rows = [[UInt8]](repeating: [255, 255], count: 2 * rowsPerOutputRow)
            XCTAssertEqual(
                average(rows, width: 2, format: .gray8, to: 1, 2), [255, 255], "\(rowsPerOutputRow) rows per output row"
            )
        }
    }

    func test_wholeAndStraddlingRows_averageExactly_withManyRowsPerOutputRow() {
        // 7 × 600 → 2 × 2: 300 rows per output row, each a different value.
        let rows: [[UInt8]] = (0..<600).map { y in [UInt8](repeating: UInt8(y % 256), count: 7) }
        // Each output pixel averages whole rows 0...299 or 300...599: round half up of sum / 300.
        let top = (0..<300).reduce(0) { $0 + $1 % 256 }
        let bottom = (300..<600).reduce(0) { $0 + $1 % 256 }
        let expected = [top, top, bottom, bottom].map { UInt8((2 * $0 + 300) / 600) }
        XCTAssertEqual(average(rows, width: 7, format: .gray8, to: 2, 2), expected)
    }
}

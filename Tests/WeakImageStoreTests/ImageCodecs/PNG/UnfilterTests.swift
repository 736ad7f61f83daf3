import ImageStoreTestSupport
import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

/// Unfiltering against the PNG specification's byte-by-byte definitions, on random rows.
final class UnfilterTests: XCTestCase {
    /// The specification's reconstruction of one byte-wise row (section 9.2), as plain as it gets.
    private func reference(
        _ filterType: UInt8, _ row: [UInt8], _ prior: [UInt8], bytesPerPixel: Int
    ) -> [UInt8] {
        var out = [UInt8](repeating: 0, count: row.count)
        for index in 0..<row.count {
            let left = index >= bytesPerPixel ? out[index - bytesPerPixel] : 0
            let upLeft = index >= bytesPerPixel ? prior[index - bytesPerPixel] : 0
            out[index] = row[index] &+ PNGRowFilter.predictor(filterType, left: left, up: prior[index], upLeft: upLeft)
        }
        return out
    }

    private func randomBytes(_ count: Int, _ generator: inout SystemRandomNumberGenerator) -> [UInt8] {
        (0..<count).map { _ in UInt8.random(in: 0...255, using: &generator) }
    }

    func test_unfilterRow_matchesTheSpecification_forEveryFilterAndPixelWidth() {
        var generator = SystemRandomNumberGenerator()
        for bytesPerPixel in [1, 2, 3, 4, 6, 8] {
            let count = 29 * bytesPerPixel
            for filterType: UInt8 in 0...4 {
                // Given: rows followed by the slack unfiltering may read
                let row = randomBytes(count, &generator)
                let prior = randomBytes(count, &generator)
                let paddedRow = row + [UInt8](repeating: 0, count: 16)
                let paddedPrior = prior + [UInt8](repeating: 0, count: 16)
                var output = [UInt8](repeating: 0, count: count + 16)
                // When
                paddedRow.withUnsafeBufferPointer { row in
                    paddedPrior.withUnsafeBufferPointer { prior in
                        output.withUnsafeMutableBufferPointer { output in
                            Unfilter.unfilterRow(
                                filterType: filterType, row: row.baseAddress!, prior: prior.baseAddress!,
                                into: output.baseAddress!, count: count, bytesPerPixel: bytesPerPixel
                            )
                        }
                    }
                }
                // Then
                XCTAssertEqual(
                    Array(output.prefix(count)), reference(filterType, row, prior, bytesPerPixel: bytesPerPixel),
                    "filter \(filterType), \(bytesPerPixel) bytes per pixel"
                )
            }
        }
    }

    func test_unfilterRGBRowToRGBA_matchesTheSpecification_andIsOpaque() {
        var generator = SystemRandomNumberGenerator()
        let pixelCount = 31
        for filterType: UInt8 in 0...4 {
            // Given: an RGB row; the row above as RGBA (its alpha plays no part)
            let row = randomBytes(3 * pixelCount, &generator)
            let priorRGB = randomBytes(3 * pixelCount, &generator)
            var priorRGBA = [UInt8]()
            for pixel in 0..<pixelCount { priorRGBA += priorRGB[(3 * pixel)..<(3 * pixel + 3)] + [255] }
            let paddedRow = row + [UInt8](repeating: 0, count: 16)
            let paddedPrior = priorRGBA + [UInt8](repeating: 0, count: 16)
            var output = [UInt8](repeating: 0, count: 4 * pixelCount + 16)
            // When
            paddedRow.withUnsafeBufferPointer { row in
                paddedPrior.withUnsafeBufferPointer { prior in
                    output.withUnsafeMutableBufferPointer { output in
                        Unfilter.unfilterRGBRowToRGBA(
                            filterType: filterType, row: row.baseAddress!, prior: prior.baseAddress!,
                            into: output.baseAddress!, pixelCount: pixelCount
                        )
                    }
                }
            }
            // Then
            let expected = reference(filterType, row, priorRGB, bytesPerPixel: 3)
            var expectedRGBA = [UInt8]()
            for pixel in 0..<pixelCount { expectedRGBA += expected[(3 * pixel)..<(3 * pixel + 3)] + [255] }
            XCTAssertEqual(Array(output.prefix(4 * pixelCount)), expectedRGBA, "filter \(filterType)")
        }
    }

    func test_unfilterRGBRowPairToRGBA_matchesTheSpecification_forAverageAndPaeth_atEveryShortWidth() {
        var generator = SystemRandomNumberGenerator()
        // Widths 1-3 reach the pair loops' edges (the second row runs two pixels behind).
        for pixelCount in [1, 2, 3, 4, 5, 8, 31, 64] {
            for filterType: UInt8 in [3, 4] {
                // Given: two RGB rows with the same filter; the row above as RGBA
                let rows = [randomBytes(3 * pixelCount, &generator), randomBytes(3 * pixelCount, &generator)]
                let priorRGB = randomBytes(3 * pixelCount, &generator)
                var priorRGBA = [UInt8]()
                for pixel in 0..<pixelCount { priorRGBA += priorRGB[(3 * pixel)..<(3 * pixel + 3)] + [255] }
                let padding = [UInt8](repeating: 0, count: 16)
                let paddedRows = (rows[0] + padding, rows[1] + padding)
                let paddedPrior = priorRGBA + padding
                var output = [UInt8](repeating: 0, count: 8 * pixelCount + 16)
                // When
                paddedRows.0.withUnsafeBufferPointer { first in
                    paddedRows.1.withUnsafeBufferPointer { second in
                        paddedPrior.withUnsafeBufferPointer { prior in
                            output.withUnsafeMutableBufferPointer { output in
                                Unfilter.unfilterRGBRowPairToRGBA(
                                    filterType: filterType, rows: (first.baseAddress!, second.baseAddress!),
                                    prior: prior.baseAddress!,
                                    into: (output.baseAddress!, output.baseAddress! + 4 * pixelCount),
                                    pixelCount: pixelCount)
                            }
                        }
                    }
                }
                // Then: each row as the specification reconstructs it, opaque
                let firstRow = reference(filterType, rows[0], priorRGB, bytesPerPixel: 3)
                let secondRow = reference(filterType, rows[1], firstRow, bytesPerPixel: 3)
                var expectedRGBA = [UInt8]()
                for row in [firstRow, secondRow] {
                    for pixel in 0..<pixelCount { expectedRGBA += row[(3 * pixel)..<(3 * pixel + 3)] + [255] }
                }
                XCTAssertEqual(
                    Array(output.prefix(8 * pixelCount)), expectedRGBA, "filter \(filterType), \(pixelCount) pixels")
            }
        }
    }
}

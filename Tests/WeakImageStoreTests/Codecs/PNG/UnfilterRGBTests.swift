import XCTest

@testable import WeakImageStore

/// Unfiltering 8-bit RGB straight to opaque RGBA, with and without adding to column sums.
final class UnfilterRGBTests: XCTestCase {
    func test_unfilterAddingToSums_writesTheSameRow_andAddsEverySample() {
        let pixelCount = 37
        var generator = SystemRandomNumberGenerator()
        // Room for the 4-byte loads one past a 3-byte pixel.
        let filtered = (0..<(3 * pixelCount + 16)).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let prior = (0..<(4 * pixelCount + 16)).map { _ in UInt8.random(in: 0...255, using: &generator) }
        let initialSums = (0..<(4 * pixelCount)).map { _ in UInt32.random(in: 0...1_000_000, using: &generator) }
        for filterType: UInt8 in 0...4 {
            // Given
            var plain = [UInt8](repeating: 0, count: 4 * pixelCount + 16)
            var fused = plain
            var sums = initialSums
            // When
            filtered.withUnsafeBufferPointer { row in
                prior.withUnsafeBufferPointer { prior in
                    plain.withUnsafeMutableBufferPointer { plain in
                        Unfilter.unfilterRGBRowToRGBA(
                            filterType: filterType, row: row.baseAddress!, prior: prior.baseAddress!,
                            into: plain.baseAddress!, pixelCount: pixelCount
                        )
                    }
                    fused.withUnsafeMutableBufferPointer { fused in
                        sums.withUnsafeMutableBufferPointer { sums in
                            Unfilter.unfilterRGBRowToRGBA(
                                filterType: filterType, row: row.baseAddress!, prior: prior.baseAddress!,
                                into: fused.baseAddress!, addingTo: sums.baseAddress!, pixelCount: pixelCount
                            )
                        }
                    }
                }
            }
            // Then
            XCTAssertEqual(fused, plain, "filter type \(filterType)")
            XCTAssertEqual(
                sums, zip(initialSums, plain).map { $0 + UInt32($1) }, "filter type \(filterType)")
            XCTAssertTrue(
                stride(from: 3, to: 4 * pixelCount, by: 4).allSatisfy { plain[$0] == 255 }, "opaque alpha")
        }
    }
}

import Foundation
import XCTest

@testable import WeakImageStore

/// `AnyImageDecoder` forwards every requirement to the decoder it wraps, so a decoder's own
/// thumbnails, damage reports and decode peaks survive being put in a configuration.
final class AnyImageDecoderTests: XCTestCase {
    /// Answers every requirement with a value of its own, none of them the protocol's default.
    private struct DistinctDecoder: ImageDecoding {
        func decode(_ data: Data, scale: Int) throws -> Bitmap {
            Bitmap(width: 1, height: 1, scale: scale, format: .gray8, pixels: [1])
        }

        func decode(_ data: Data, scale: Int, maxPixelSize: Int) throws -> Bitmap {
            Bitmap(
                width: maxPixelSize, height: 1, scale: scale, format: .gray8,
                pixels: Array(repeating: 2, count: maxPixelSize))
        }

        func pixelSize(of data: Data) -> (width: Int, height: Int)? {
            (width: 7, height: 3)
        }

        func decodeReportingDamage(_ data: Data, scale: Int, maxPixelSize: Int?) throws -> (
            image: Bitmap, isDamaged: Bool
        ) {
            (try decode(data, scale: scale), true)
        }

        func decodingPeakBytes(of data: Data, maxPixelSize: Int?) -> Int? {
            42 + (maxPixelSize ?? 0)
        }
    }

    func test_everyRequirement_reachesTheWrappedDecoder() throws {
        // Given
        let decoder = AnyImageDecoder(DistinctDecoder())
        let data = Data([0])
        // When
        let full = try decoder.decode(data, scale: 2)
        let reduced = try decoder.decode(data, scale: 2, maxPixelSize: 5)
        let (image, isDamaged) = try decoder.decodeReportingDamage(data, scale: 3, maxPixelSize: nil)
        // Then
        XCTAssertEqual(full.width, 1)
        XCTAssertEqual(full.scale, 2)
        XCTAssertEqual(reduced.width, 5)
        XCTAssertEqual(image.scale, 3)
        XCTAssertTrue(isDamaged)
        XCTAssertEqual(decoder.pixelSize(of: data)?.width, 7)
        XCTAssertEqual(decoder.pixelSize(of: data)?.height, 3)
        XCTAssertEqual(decoder.decodingPeakBytes(of: data, maxPixelSize: 8), 50)
    }

    func test_wrappingAWrapper_forwardsTheSame() throws {
        // Given
        let decoder = AnyImageDecoder(AnyImageDecoder(DistinctDecoder()))
        // When
        let (_, isDamaged) = try decoder.decodeReportingDamage(Data([0]), scale: 1, maxPixelSize: nil)
        // Then
        XCTAssertTrue(isDamaged)
        XCTAssertEqual(decoder.decodingPeakBytes(of: Data([0]), maxPixelSize: nil), 42)
    }
}

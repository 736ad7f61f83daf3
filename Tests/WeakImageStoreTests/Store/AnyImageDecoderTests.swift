import Foundation
import XCTest

@testable import WeakImageStore

/// `AnyImageDecoder` forwards every requirement to the decoder it wraps, so a decoder's own
/// headers, thumbnails, damage reports and decode peaks survive being put in a configuration.
final class AnyImageDecoderTests: XCTestCase {
    /// Answers every requirement with a value of its own, none of them the protocol's default.
    private struct DistinctDecoder: ImageDecoding {
        func header(of data: Data) -> ImageHeader? {
            ImageHeader(width: 7, height: 3, format: ImageFormat(name: "distinct"), frameCount: 2)
        }

        func decode(_ data: Data, options: DecodeOptions) throws -> DecodeResult<Bitmap> {
            let width = options.maxPixelSize ?? 1
            return DecodeResult(
                image: Bitmap(
                    width: width, height: 1, scale: options.scale, format: .gray8,
                    pixels: Array(repeating: 2, count: width)),
                isDamaged: true)
        }

        func decodingPeakBytes(of data: Data, options: DecodeOptions) -> Int? {
            42 + (options.maxPixelSize ?? 0)
        }
    }

    func test_everyRequirement_reachesTheWrappedDecoder() throws {
        // Given
        let decoder = AnyImageDecoder(DistinctDecoder())
        let data = Data([0])
        // When
        let full = try decoder.decode(data, scale: 2)
        let reduced = try decoder.decode(data, options: DecodeOptions(scale: 3, maxPixelSize: 5))
        // Then
        XCTAssertEqual(full.width, 1)
        XCTAssertEqual(full.scale, 2)
        XCTAssertEqual(reduced.image.width, 5)
        XCTAssertEqual(reduced.image.scale, 3)
        XCTAssertTrue(reduced.isDamaged)
        XCTAssertEqual(
            decoder.header(of: data),
            ImageHeader(width: 7, height: 3, format: ImageFormat(name: "distinct"), frameCount: 2))
        XCTAssertEqual(decoder.decodingPeakBytes(of: data, options: DecodeOptions(maxPixelSize: 8)), 50)
    }

    func test_wrappingAWrapper_forwardsTheSame() throws {
        // Given
        let decoder = AnyImageDecoder(AnyImageDecoder(DistinctDecoder()))
        // When
        let result = try decoder.decode(Data([0]), options: DecodeOptions())
        // Then
        XCTAssertTrue(result.isDamaged)
        XCTAssertEqual(decoder.decodingPeakBytes(of: Data([0]), options: DecodeOptions()), 42)
    }
}

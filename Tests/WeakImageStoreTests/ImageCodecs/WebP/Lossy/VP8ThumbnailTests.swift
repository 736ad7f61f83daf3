import XCTest

@testable import ImageCodecs

/// The row sink is what thumbnails need: rows go straight into the area averager, so a
/// thumbnail never holds the full image, and it equals the full decode averaged.
final class VP8ThumbnailTests: XCTestCase {
    func test_rowsAveragedAsTheyCome_equalTheFullDecodeDownsampled() throws {
        for (file, maxPixelSize) in [("q75.webp", 40), ("size-1x1000.webp", 100), ("af.webp", 77)] {
            // Given
            let data = try VP8Suite.vp8Data(file)
            let full = try data.withUnsafeBytes { try VP8Decoder.decodeRGBA($0) }
            let size = try XCTUnwrap(ThumbnailSize(width: full.width, height: full.height, maxPixelSize: maxPixelSize))

            // When
            var thumbnail = [UInt8](repeating: 0, count: 4 * size.width * size.height)
            try thumbnail.withUnsafeMutableBufferPointer { output in
                let averager = AreaAverager(
                    sourceWidth: full.width, sourceHeight: full.height, outputWidth: size.width,
                    outputHeight: size.height, format: .rgba8, isOpaque: true, into: output.baseAddress!)
                try data.withUnsafeBytes { bytes in
                    try VP8Decoder.decode(bytes) { _, row in averager.addRow(row.baseAddress!) }
                }
            }

            // Then
            let expected = Bitmap(width: full.width, height: full.height, format: .rgba8, pixels: full.pixels)
                .downsampled(maxPixelSize: maxPixelSize)
            XCTAssertEqual(thumbnail, expected.pixels, file)
        }
    }
}

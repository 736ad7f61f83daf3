import ImageStoreTestSupport
import WeakImageStore
import XCTest

/// The shared encoders against the library's decoders: PNG comes back exactly, JPEG close.
final class ImageEncoderRoundTripTests: XCTestCase {
    /// Noise in the top half (literals, stored blocks) and stripes below (long matches), big
    /// enough for several deflate blocks and IDAT chunks.
    private func makeBitmap(_ format: PixelFormat, width: Int = 300, height: Int = 200, opaque: Bool = false) -> Bitmap
    {
        var random = SeededGenerator(seed: 0xE4C0DE)
        let channels = format.bytesPerPixel
        var pixels = [UInt8](repeating: 0, count: width * height * channels)
        for index in pixels.indices {
            let y = index / (width * channels)
            pixels[index] =
                y < height / 2 ? UInt8.random(in: 0...255, using: &random) : UInt8(index / channels % 7 * 30)
            if opaque && index % channels == channels - 1 { pixels[index] = 255 }
        }
        return Bitmap(width: width, height: height, format: format, pixels: pixels)
    }

    func test_pngEncoder_roundTripsEveryFormatExactly() throws {
        let cases: [(PixelFormat, Bool)] = [(.gray8, false), (.grayAlpha8, false), (.rgba8, true), (.rgba8, false)]
        for (format, opaque) in cases {
            // Given
            let bitmap = makeBitmap(format, opaque: opaque)
            // When
            let decoded = try PNGDecoder().decode(PNGEncoder.encode(bitmap), scale: 1)
            // Then
            XCTAssertEqual(decoded.format, format, "\(format), opaque \(opaque)")
            XCTAssertEqual(decoded.width, bitmap.width)
            XCTAssertTrue(decoded.pixels == bitmap.pixels, "\(format), opaque \(opaque): pixels differ")
        }
    }

    func test_pngEncoder_compressesRepetitiveImagesWell() throws {
        // Given: a flat image, which deflate should shrink to almost nothing
        let flat = Bitmap(width: 256, height: 256, format: .gray8, pixels: [UInt8](repeating: 77, count: 65_536))
        // When
        let file = PNGEncoder.encode(flat)
        // Then
        XCTAssertLessThan(file.count, 1_000)
        XCTAssertEqual(try PNGDecoder().decode(file, scale: 1).pixels, flat.pixels)
    }

    func test_jpegEncoder_roundTripsCloseToTheSource_withEitherChromaSampling() throws {
        // Given: a smooth, odd-sized colour gradient (the edges need padding)
        let width = 67
        let height = 45
        var pixels: [UInt8] = []
        for y in 0..<height {
            for x in 0..<width {
                pixels += [
                    UInt8(x * 255 / width), UInt8(y * 255 / height), UInt8((x + y) * 255 / (width + height)), 255,
                ]
            }
        }
        let bitmap = Bitmap(width: width, height: height, format: .rgba8, pixels: pixels)
        for sampling in [JPEGEncoder.ChromaSampling.halved, .full] {
            // When
            let decoded = try JPEGDecoder().decode(
                JPEGEncoder.encode(bitmap, quality: 90, chromaSampling: sampling), scale: 1)
            // Then
            XCTAssertEqual([decoded.width, decoded.height], [width, height])
            let colorIndices = pixels.indices.filter { $0 % 4 != 3 }
            let totalError = colorIndices.reduce(0) { $0 + abs(Int(decoded.pixels[$1]) - Int(pixels[$1])) }
            XCTAssertLessThan(Double(totalError) / Double(colorIndices.count), 3, "\(sampling)")
        }
    }
}

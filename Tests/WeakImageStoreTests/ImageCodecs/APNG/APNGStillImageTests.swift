import XCTest

@testable import ImageCodecs

/// An APNG seen as a still image, and a PNG seen as an animation: the still decoder keeps
/// decoding the default image, and a PNG without `acTL` has no frames.
final class APNGStillImageTests: XCTestCase {
    /// The file without its `acTL`, `fcTL` and `fdAT` chunks: the plain PNG of its default image.
    private func withoutAnimationChunks(_ data: Data) -> Data {
        var plain = Data(data.prefix(8))
        var offset = 8
        let bytes = [UInt8](data)
        while offset + 12 <= bytes.count {
            let length = bytes[offset..<offset + 4].reduce(0) { $0 << 8 | Int($1) }
            let type = String(decoding: bytes[offset + 4..<offset + 8], as: UTF8.self)
            if !["acTL", "fcTL", "fdAT"].contains(type) {
                plain.append(contentsOf: bytes[offset..<offset + 12 + length])
            }
            offset += 12 + length
        }
        return plain
    }

    func test_stillDecode_ofAnAPNG_isItsDefaultImage() throws {
        for entry in try APNGSuite.entries() where entry.status == "ok" {
            // Given
            let data = try APNGSuite.data(entry.file)
            let plain = withoutAnimationChunks(data)
            XCTAssertLessThan(plain.count, data.count, entry.file)
            // When
            let still = try PNGDecoder().decode(data, options: DecodeOptions())
            let reference = try PNGDecoder().decode(plain, options: DecodeOptions())
            // Then
            XCTAssertEqual(still.image.pixels, reference.image.pixels, entry.file)
            XCTAssertEqual(still.image.format, reference.image.format, entry.file)
            XCTAssertFalse(still.isDamaged)
        }
    }

    func test_plainPNG_hasNoAnimation_andOneFrame() throws {
        for entry in try APNGSuite.entries() where entry.status == "ok" {
            // Given
            let plain = withoutAnimationChunks(try APNGSuite.data(entry.file))
            // When / Then
            XCTAssertNil(try PNGDecoder().animationInfo(of: plain), entry.file)
            XCTAssertNil(try PNGDecoder().frameCursor(for: plain, options: DecodeOptions()), entry.file)
            XCTAssertNil(try BitmapDecoder().frameCursor(for: plain, options: DecodeOptions()), entry.file)
            XCTAssertEqual(PNGDecoder().header(of: plain)?.frameCount, 1, entry.file)
        }
    }

    func test_header_ofAnAPNG_countsTheDeclaredFrames() throws {
        // Given: files declaring as many frames as they have, more, and fewer
        for (file, expected) in [("operations-rgba8.png", 13), ("frames-declared-more.png", 6), ("one-frame.png", 1)] {
            let data = try APNGSuite.data(file)
            // When
            let header = PNGDecoder().header(of: data)
            // Then
            XCTAssertEqual(header?.frameCount, expected, file)
            XCTAssertEqual(BitmapDecoder().header(of: data)?.frameCount, expected, file)
        }
    }

    func test_bitmapDecoder_givesACursorForAnAPNG() throws {
        // Given
        let data = try APNGSuite.data("rgba8.png")
        // When
        let cursor = try BitmapDecoder().frameCursor(for: data, options: DecodeOptions())
        let frames = try BitmapDecoder().animatedFrames(of: data, options: DecodeOptions())
        // Then
        XCTAssertEqual(cursor?.info.frameCount, 4)
        XCTAssertEqual(cursor?.info.format, .png)
        XCTAssertEqual(frames?.cursor.info, cursor?.info)
    }

    func test_bitmapDecoder_wrapsAnAPNGsError() throws {
        // Given
        let data = try APNGSuite.data("sequence-swapped.png")
        // When / Then
        XCTAssertThrowsError(try BitmapDecoder().frameCursor(for: data, options: DecodeOptions())) { error in
            guard case .png(.animationSequence) = error as? BitmapDecoderError else {
                return XCTFail("\(error)")
            }
        }
    }

    func test_defaultImageFrame_isTheStillDecode_whenDrawnOnTheEmptyCanvas() throws {
        // Given: RGBA files whose first frame is the default image, blended source
        for file in ["rgba8.png", "split-fdat.png", "interlaced-rgba8.png"] {
            let data = try APNGSuite.data(file)
            var cursor = try XCTUnwrap(PNGDecoder().frameCursor(for: data, options: DecodeOptions()))
            // When
            let first = try cursor.nextFrame().image
            // Then
            XCTAssertEqual(first.pixels, try PNGDecoder().decode(data, scale: 1).pixels, file)
        }
    }
}

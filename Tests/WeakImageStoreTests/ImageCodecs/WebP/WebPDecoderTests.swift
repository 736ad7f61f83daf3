import Foundation
import XCTest

@testable import ImageCodecs

/// WebPDecoder's limits, peak, header and its place in BitmapDecoder.
final class WebPDecoderTests: XCTestCase {
    private func file(_ name: String) throws -> Data {
        try WebPSuite.data(name)
    }

    func test_bitmapDecoder_recognizesWebPByContent_andDecodesIt() throws {
        let data = try file("lossless-logo-z9.webp")
        XCTAssertEqual(BitmapDecoder.format(of: data), .webp)
        XCTAssertNil(BitmapDecoder.format(of: Data("RIFF\0\0\0\0WAVE".utf8)))
        XCTAssertNil(BitmapDecoder.format(of: Data("RIFF\0\0\0\0WEB".utf8)))
        let viaBitmapDecoder = try BitmapDecoder().decode(data, options: DecodeOptions())
        let direct = try WebPDecoder().decode(data, options: DecodeOptions())
        XCTAssertEqual(viaBitmapDecoder.image.pixels, direct.image.pixels)
        XCTAssertEqual(BitmapDecoder().header(of: data)?.format, .webp)
        XCTAssertEqual(
            BitmapDecoder().decodingPeakBytes(of: data, options: DecodeOptions()),
            WebPDecoder().decodingPeakBytes(of: data, options: DecodeOptions()))
        XCTAssertNil(try BitmapDecoder().frameCursor(for: data, options: DecodeOptions()))
    }

    func test_lossyFile_throughBitmapDecoder_isTheWebPDecodersImage() throws {
        let data = try file("lossy-rose.webp")
        let image = try BitmapDecoder().decode(data, options: DecodeOptions()).image
        XCTAssertEqual([image.width, image.height], [70, 46])
        XCTAssertEqual(image.pixels, try WebPDecoder().decode(data, options: DecodeOptions()).image.pixels)
    }

    func test_hugeDeclaredSize_throwsBeforeAllocating() throws {
        let data = try file("huge-lossless.webp")
        XCTAssertLessThan(data.count, 64)
        XCTAssertNil(WebPDecoder().header(of: data))
        XCTAssertNil(WebPDecoder().decodingPeakBytes(of: data, options: DecodeOptions()))
        let small = WebPDecoder(maximumPixelCount: 1000, maximumDimension: 64)
        XCTAssertThrowsError(try small.decode(try file("lossless-logo-z9.webp"), options: DecodeOptions())) {
            XCTAssertEqual($0 as? WebPError, .imageTooLarge(width: 256, height: 192, limit: .dimension(64)))
        }
        let fewPixels = WebPDecoder(maximumPixelCount: 1000)
        XCTAssertThrowsError(try fewPixels.decode(try file("lossless-z0.webp"), options: DecodeOptions())) {
            XCTAssertEqual($0 as? WebPError, .imageTooLarge(width: 70, height: 46, limit: .pixelCount(1000)))
        }
    }

    func test_decodingPeak_isCheckedAgainstItsLimit() throws {
        let data = try file("lossless-logo-z9.webp")
        let peak = try XCTUnwrap(WebPDecoder().decodingPeakBytes(of: data, options: DecodeOptions()))
        XCTAssertGreaterThanOrEqual(peak, 256 * 192 * 4)
        XCTAssertLessThan(peak, 256 * 192 * 4 * 2)
        let thumbnailPeak = try XCTUnwrap(
            WebPDecoder().decodingPeakBytes(of: data, options: DecodeOptions(maxPixelSize: 32)))
        XCTAssertGreaterThan(thumbnailPeak, 256 * 192 * 4)
        let tight = WebPDecoder(maximumDecodingBytes: peak - 1)
        XCTAssertThrowsError(try tight.decode(data, options: DecodeOptions())) {
            XCTAssertEqual($0 as? WebPError, .decodeTooLarge(bytesNeeded: peak, limit: peak - 1))
        }
        XCTAssertNoThrow(try WebPDecoder(maximumDecodingBytes: peak).decode(data, options: DecodeOptions()))
    }

    func test_header_isReused_andCountsOneFrameForAStill() throws {
        let data = try file("extended-metadata.webp")
        let header = try XCTUnwrap(WebPDecoder().header(of: data))
        XCTAssertEqual(header.frameCount, 1)
        XCTAssertEqual(header.format.name, "WebP")
        let withHeader = try WebPDecoder().decode(data, options: DecodeOptions(header: header))
        let without = try WebPDecoder().decode(data, options: DecodeOptions())
        XCTAssertEqual(withHeader.image.pixels, without.image.pixels)
    }

    func test_thumbnailAsLargeAsTheImage_isTheFullImage() throws {
        let data = try file("lossless-z3.webp")
        let full = try WebPDecoder().decode(data, options: DecodeOptions()).image
        let same = try WebPDecoder().decode(data, options: DecodeOptions(maxPixelSize: 70)).image
        XCTAssertEqual(same.width, 70)
        XCTAssertEqual(same.pixels, full.pixels)
    }

    func test_notWebP_andEmpty_throwBadSignature() {
        for bytes in [Data(), Data("RIFF\u{10}\0\0\0WAVEfmt ".utf8), Data(repeating: 0, count: 40)] {
            XCTAssertThrowsError(try WebPDecoder().decode(bytes, options: DecodeOptions())) {
                XCTAssertEqual(
                    $0 as? WebPError,
                    bytes.isEmpty ? .truncated(chunk: "RIFF", offset: 0, expectedEnd: 12) : .badSignature)
            }
        }
    }

    func test_everyTruncation_ofALosslessFile_throwsATypedError() throws {
        let data = try file("lossless-alpha-z9-exact.webp")
        for length in stride(from: 0, to: data.count, by: 7) {
            var cut = Data(data.prefix(length))
            if length >= 8 {
                // Sizes made consistent, so the bitstream itself ends early.
                let payload = UInt32(length - 8)
                cut.replaceSubrange(4..<8, with: withUnsafeBytes(of: payload.littleEndian) { Array($0) })
                if length >= 20 {
                    let chunk = UInt32(length - 20)
                    cut.replaceSubrange(16..<20, with: withUnsafeBytes(of: chunk.littleEndian) { Array($0) })
                }
            }
            XCTAssertThrowsError(try WebPDecoder().decode(cut, options: DecodeOptions()), "\(length)") {
                XCTAssertNotNil($0 as? WebPError)
            }
        }
    }

    func test_errorDescriptions_readAsSentences() {
        XCTAssertEqual("\(WebPError.repeatedTransform(type: 2))", "lossless transform 2 appears twice")
        XCTAssertEqual("\(WebPError.colorCacheBitsOutOfRange(bits: 12))", "a colour cache of 12 bits, outside 1…11")
        XCTAssertEqual(
            "\(WebPError.lossyBitstream("bad partition"))", "the lossy VP8 bitstream is invalid: bad partition")
    }

    func test_animatedFile_countsItsFrames_andIsRefusedPastTheFrameLimit() throws {
        let data = try file("anim-img2webp.webp")
        XCTAssertEqual(WebPDecoder().header(of: data)?.frameCount, 5)
        XCTAssertEqual(
            try BitmapDecoder().animatedFrames(of: data, options: DecodeOptions())?.cursor.info.frameCount, 5)
        let twoFrames = WebPDecoder(maximumFrameCount: 2)
        XCTAssertNil(twoFrames.header(of: data))
        XCTAssertThrowsError(try twoFrames.frameCursor(for: data, options: DecodeOptions())) {
            XCTAssertEqual($0 as? WebPError, .tooManyFrames(limit: 2))
        }
    }

    func test_animationWhoseFirstFrameIsOffset_decodesItOnATransparentCanvas() throws {
        // Given: a 100 × 60 canvas whose only frame is the 70 × 46 rose at (10, 6).
        let still = try file("lossless-z0.webp")
        let bitstream = still.dropFirst(20)
        func le(_ value: Int, _ count: Int) -> [UInt8] {
            (0..<count).map { UInt8(truncatingIfNeeded: value >> (8 * $0)) }
        }
        func chunk(_ fourCC: String, _ payload: [UInt8]) -> [UInt8] {
            Array(fourCC.utf8) + le(payload.count, 4) + payload + (payload.count % 2 == 1 ? [0] : [])
        }
        let frame = le(5, 3) + le(3, 3) + le(69, 3) + le(45, 3) + le(80, 3) + [0] + chunk("VP8L", Array(bitstream))
        let body =
            Array("WEBP".utf8) + chunk("VP8X", [0x12, 0, 0, 0] + le(99, 3) + le(59, 3))
            + chunk("ANIM", [0, 0, 0, 0, 0, 0]) + chunk("ANMF", frame)
        let data = Data(Array("RIFF".utf8) + le(body.count, 4) + body)
        // When
        let image = try WebPDecoder().decode(data, options: DecodeOptions()).image
        var cursor = try XCTUnwrap(try WebPDecoder().frameCursor(for: data, options: DecodeOptions()))
        let first = try cursor.nextFrame().image
        let small = try WebPDecoder().decode(data, options: DecodeOptions(maxPixelSize: 13)).image
        // Then
        let rose = try WebPDecoder().decode(still, options: DecodeOptions()).image
        XCTAssertEqual(image.width, 100)
        XCTAssertEqual(image.pixels, first.pixels)
        XCTAssertEqual(small.pixels, image.downsampled(maxPixelSize: 13).pixels)
        XCTAssertEqual(Array(image.pixels[0..<(100 * 6 * 4)]), [UInt8](repeating: 0, count: 100 * 6 * 4))
        for y in 0..<46 {
            let row = (y + 6) * 400
            XCTAssertEqual(Array(image.pixels[row + 40..<row + 320]), Array(rose.pixels[y * 280..<y * 280 + 280]))
            XCTAssertEqual(Array(image.pixels[row..<row + 40]), [UInt8](repeating: 0, count: 40))
        }
    }
}

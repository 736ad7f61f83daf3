import Foundation
import XCTest

@testable import ImageCodecs

/// Every file of the WebP suite against `dwebp -pam` (libwebp 1.2.4): lossless files byte-exact,
/// lossy files refused by name (their alpha planes byte-exact), broken files refused with the
/// exact error.
final class WebPSuiteTests: XCTestCase {
    func test_everyLosslessSuiteFile_decodesByteExact_withDwebp() throws {
        let entries = try WebPSuite.entries().filter { $0.status == .ok }
        XCTAssertGreaterThanOrEqual(entries.count, 35)
        for entry in entries {
            let data = try WebPSuite.data(entry.file)
            let result = try WebPDecoder().decode(data, options: DecodeOptions(scale: 2))
            XCTAssertEqual(result.image.width, entry.width, entry.file)
            XCTAssertEqual(result.image.height, entry.height, entry.file)
            XCTAssertEqual(result.image.format, .rgba8, entry.file)
            XCTAssertEqual(result.image.scale, 2, entry.file)
            XCTAssertFalse(result.isDamaged, entry.file)
            XCTAssertEqual(WebPSuite.hash(result.image.pixels), entry.rgbaSHA256, entry.file)
        }
    }

    func test_everyDecodableSuiteFile_hasAHeader_withItsSize() throws {
        for entry in try WebPSuite.entries() where entry.status != .error {
            let header = try XCTUnwrap(WebPDecoder().header(of: try WebPSuite.data(entry.file)), entry.file)
            XCTAssertEqual(
                header,
                ImageHeader(width: entry.width, height: entry.height, format: .webp, frameCount: entry.frameCount),
                entry.file)
        }
    }

    func test_lossySuiteFiles_withAndWithoutAlpha_decodeByteExact_withDwebp() throws {
        let entries = try WebPSuite.entries().filter { $0.status == .lossy }
        XCTAssertEqual(entries.count, 11)
        for entry in entries {
            let result = try WebPDecoder().decode(try WebPSuite.data(entry.file), options: DecodeOptions())
            XCTAssertEqual([result.image.width, result.image.height], [entry.width, entry.height], entry.file)
            XCTAssertEqual(WebPSuite.hash(result.image.pixels), entry.rgbaSHA256, entry.file)
        }
    }

    func test_lossySuiteFiles_alphaPlanes_matchDwebpsAlphaChannel() throws {
        let entries = try WebPSuite.entries().filter { $0.alphaSHA256 != nil }
        XCTAssertEqual(entries.count, 9)
        for entry in entries {
            let data = try WebPSuite.data(entry.file)
            let container = try WebPDecoder().container(of: data)
            let range = try XCTUnwrap(container.image.alpha, entry.file)
            let plane = try data.withUnsafeBytes { bytes in
                try WebPAlphaDecoder.decode(
                    UnsafeRawBufferPointer(rebasing: bytes[range]), width: entry.width, height: entry.height,
                    tableByteLimit: 1 << 24)
            }
            XCTAssertEqual(WebPSuite.hash(plane), entry.alphaSHA256, entry.file)
        }
    }

    func test_brokenSuiteFiles_throwTheirExactError() throws {
        let lossless = try WebPSuite.data("lossless-z5.webp")
        let expected: [String: WebPError] = [
            "backward-reference-before-start.webp": .backwardReferenceOutOfRange(position: 0, distance: 2, length: 1),
            "bad-signature.webp": .badLosslessHeader(signature: 0x2E),
            "bad-version.webp": .unsupportedLosslessVersion(version: 1),
            "cache-bits-12.webp": .colorCacheBitsOutOfRange(bits: 12),
            "cache-bits-15.webp": .colorCacheBitsOutOfRange(bits: 15),
            "canvas-mismatch.webp": .canvasMismatch(canvasWidth: 71, canvasHeight: 46, width: 70, height: 46),
            "chunk-size-lies.webp": .chunkBeyondRIFF(
                chunk: "VP8L", offset: 12, end: lossless.count + 100, riffEnd: lossless.count),
            "huge-canvas.webp": .imageTooLarge(width: 16_777_216, height: 16_777_216, limit: .dimension(32768)),
            "huge-lossless.webp": .imageTooLarge(width: 16384, height: 16384, limit: .pixelCount(67_108_864)),
            "incomplete-code-lengths.webp": .prefixCodeIncomplete,
            "anim-no-anim-chunk.webp": .missingAnimationHeader,
            "lossy-zero-width.webp": .zeroSize,
            "no-image.webp": .missingImageData,
            "oversubscribed-code-lengths.webp": .prefixCodeOversubscribed,
            "oversubscribed-green.webp": .prefixCodeOversubscribed,
            "repeated-transform.webp": .repeatedTransform(type: 2),
            "riff-size-huge.webp": .truncated(chunk: "RIFF", offset: lossless.count, expectedEnd: 0x7FFF_FFF8),
            "riff-size-small.webp": .chunkBeyondRIFF(chunk: "VP8L", offset: 12, end: lossless.count, riffEnd: 28),
            "truncated-bitstream.webp": .losslessDataEnded(chunk: "VP8L"),
            "truncated-half.webp": .truncated(chunk: "RIFF", offset: lossless.count / 2, expectedEnd: lossless.count),
            "truncated-header.webp": .truncated(chunk: "RIFF", offset: 10, expectedEnd: 12),
        ]
        let broken = try WebPSuite.entries().filter { $0.status == .error }.map(\.file)
        XCTAssertEqual(Set(broken), Set(expected.keys))
        for file in broken {
            let data = try WebPSuite.data(file)
            for strictness in [DecodeOptions.Strictness.lenient, .strict] {
                XCTAssertThrowsError(try WebPDecoder().decode(data, options: DecodeOptions(strictness: strictness))) {
                    XCTAssertEqual($0 as? WebPError, expected[file], file)
                }
            }
            // Fewer than 12 bytes do not say WEBP: BitmapDecoder cannot tell the format.
            let wrapped: BitmapDecoderError? =
                BitmapDecoder.format(of: data) == nil
                ? .unrecognizedFormat(leadingBytes: Array(data.prefix(8))) : expected[file].map { .webp($0) }
            XCTAssertThrowsError(try BitmapDecoder().decode(data, options: DecodeOptions())) {
                XCTAssertEqual($0 as? BitmapDecoderError, wrapped, file)
            }
        }
    }

    func test_thumbnails_equalTheFullDecodeAveraged() throws {
        for entry in try WebPSuite.entries()
        where [.ok, .lossy].contains(entry.status) && max(entry.width, entry.height) > 8 {
            let data = try WebPSuite.data(entry.file)
            let full = try WebPDecoder().decode(data, options: DecodeOptions()).image
            for maxPixelSize in [1, 7, max(entry.width, entry.height) - 1] {
                let small = try WebPDecoder().decode(data, options: DecodeOptions(maxPixelSize: maxPixelSize)).image
                let reference = full.downsampled(maxPixelSize: maxPixelSize)
                XCTAssertEqual(small.width, reference.width, entry.file)
                XCTAssertEqual(small.height, reference.height, entry.file)
                XCTAssertEqual(small.pixels, reference.pixels, "\(entry.file) at \(maxPixelSize)")
            }
        }
    }

    func test_everyAnimatedSuiteFile_matchesWebPAnimDecodersFrames() throws {
        let entries = try WebPSuite.entries().filter { $0.status == .animated }
        let references = try WebPSuite.frames()
        XCTAssertEqual(entries.count, 5)
        for entry in entries {
            let data = try WebPSuite.data(entry.file)
            let expected = try XCTUnwrap(references[entry.file], entry.file)
            let info = try XCTUnwrap(try WebPDecoder().animationInfo(of: data), entry.file)
            XCTAssertEqual(info.format, .webp)
            XCTAssertEqual(info.loopCount, entry.loopCount, entry.file)
            XCTAssertEqual(
                info.frames.map { $0.nanoseconds / 1_000_000 },
                expected.map { $0.durationMilliseconds <= 10 ? 100 : $0.durationMilliseconds }, entry.file)
            var cursor = try XCTUnwrap(try WebPDecoder().frameCursor(for: data, options: DecodeOptions()))
            var thumbnails = try XCTUnwrap(
                try BitmapDecoder().frameCursor(for: data, options: DecodeOptions(maxPixelSize: 9)))
            var index = 0
            while !cursor.isFinished {
                let frame = try cursor.nextFrame()
                XCTAssertEqual(WebPSuite.hash(frame.image.pixels), expected[index].sha256, "\(entry.file) \(index)")
                XCTAssertEqual(
                    try thumbnails.nextFrame().image.pixels, frame.image.downsampled(maxPixelSize: 9).pixels,
                    "\(entry.file) \(index)")
                if index == 0 {
                    let still = try WebPDecoder().decode(data, options: DecodeOptions())
                    XCTAssertEqual(still.image.pixels, frame.image.pixels, entry.file)
                }
                index += 1
            }
            XCTAssertEqual(index, expected.count, entry.file)
        }
    }

    func test_aStillFile_hasNoAnimation() throws {
        let data = try WebPSuite.data("lossless-z2.webp")
        XCTAssertNil(try WebPDecoder().animationInfo(of: data))
        XCTAssertNil(try WebPDecoder().frameCursor(for: data, options: DecodeOptions()))
        XCTAssertNil(try BitmapDecoder().animatedFrames(of: data, options: DecodeOptions()))
    }

    func test_fuzzFinding_losslessStreamPastItsChunk_decodesAsLibwebpDoes() throws {
        // The differential fuzzer's first finding: libwebp reads a still's VP8L stream on past a
        // chunk size that is too small; dwebp -pam gives these pixels.
        let data = try Data(
            contentsOf: SharedTestData.packageRoot.appendingPathComponent(
                "Tests/WeakImageStoreTests/Fixtures/fuzz/webp-lossless-stream-past-chunk.webp"))
        let image = try WebPDecoder().decode(data, options: DecodeOptions()).image
        XCTAssertEqual(
            WebPSuite.hash(image.pixels), "787d493fde49b84dc1fd48b785aa0f755b1c1a9fa2dde1c5c57d4af4f19dd5b7")
    }

    func test_fuzzFinding_losslessHeaderPastItsChunk_decodesAsLibwebpDoes() throws {
        // A VP8L chunk of size 1: libwebp reads the 5-byte header and the stream on past it.
        let data = try Data(
            contentsOf: SharedTestData.packageRoot.appendingPathComponent(
                "Tests/WeakImageStoreTests/Fixtures/fuzz/webp-lossless-header-past-chunk.webp"))
        let image = try WebPDecoder().decode(data, options: DecodeOptions()).image
        XCTAssertEqual(image.pixels, [0, 0, 0, 255])
    }

    func test_cancelledDecode_stopsWithCancelled() throws {
        let data = try WebPSuite.data("size-2x300.webp")
        let cancellation = DecodeCancellation()
        cancellation.requestStop()
        XCTAssertThrowsError(
            try DecodeCancellation.current.withValue(cancellation) {
                try WebPDecoder().decode(data, options: DecodeOptions())
            }
        ) { XCTAssertEqual($0 as? WebPError, .cancelled) }
    }
}

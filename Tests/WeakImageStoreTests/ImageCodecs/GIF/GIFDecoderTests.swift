import Foundation
import XCTest

@testable import ImageCodecs

/// GIFDecoder's rules, limits and cursor, and its registration in BitmapDecoder.
final class GIFDecoderTests: XCTestCase {
    private let animations = [
        "disposal-2.gif", "disposal-3.gif", "interlaced-frames.gif", "pillow-optimized.gif",
        "real-perl-tk-anim.gif", "real-phpmyadmin-ajax-clock.gif", "transparency.gif", "zero-size-frame.gif",
    ]

    private func frames(of data: Data, options: DecodeOptions = DecodeOptions()) throws -> [Bitmap] {
        var cursor = try GIFDecoder().frameCursor(for: data, options: options)
        var frames: [Bitmap] = []
        while !cursor.isFinished { frames.append(try cursor.nextFrame().image) }
        return frames
    }

    // MARK: Timing, disposal, loop

    func test_delaysOfZeroOrOneHundredth_playAs100ms_othersAsStored() {
        XCTAssertEqual(GIFFrameRecord.playedMilliseconds(delay: 0), 100)
        XCTAssertEqual(GIFFrameRecord.playedMilliseconds(delay: 1), 100)
        XCTAssertEqual(GIFFrameRecord.playedMilliseconds(delay: 2), 20)
        XCTAssertEqual(GIFFrameRecord.playedMilliseconds(delay: 10), 100)
        XCTAssertEqual(GIFFrameRecord.playedMilliseconds(delay: 65535), 655_350)
    }

    func test_disposalMethods_mapAsBrowsers_undefinedOnesAsNone() {
        XCTAssertEqual(
            (0...7).map { GIFFrameRecord.disposal(UInt8($0)) },
            [.none, .none, .background, .previous, .none, .none, .none, .none])
    }

    func test_loopCount_isOneWithoutExtension_elseAsStored() throws {
        XCTAssertEqual(try GIFDecoder().animationInfo(of: GIFSuite.data("loop-absent.gif")).loopCount, 1)
        XCTAssertEqual(try GIFDecoder().animationInfo(of: GIFSuite.data("loop-0.gif")).loopCount, 0)
        XCTAssertEqual(try GIFDecoder().animationInfo(of: GIFSuite.data("loop-3.gif")).loopCount, 3)
        XCTAssertEqual(try GIFDecoder().animationInfo(of: GIFSuite.data("loop-animexts.gif")).loopCount, 7)
    }

    func test_framesBlendOver_andGeometryComesFromTheDescriptor() throws {
        let info = try GIFDecoder().animationInfo(of: GIFSuite.data("past-screen.gif"))
        XCTAssertEqual(info.frames.map(\.blend), [.over, .over])
        XCTAssertEqual(info.frames[1].x, 6)
        XCTAssertEqual(info.frames[1].y, 7)
        XCTAssertEqual(info.frames[1].width, 8)
        XCTAssertEqual(info.width, 10)
    }

    func test_graphicControlExtension_readAsTheSpecificationSays() throws {
        let image = GIFTestFile.image(width: 1, height: 1, codes: GIFTestFile.literals([1]))
        func frame(_ extensionBytes: [UInt8]) throws -> AnimationFrameInfo {
            let data = Data(GIFTestFile.header(width: 1, height: 1) + extensionBytes + image + [0x3B])
            let info = try GIFDecoder().animationInfo(of: data)
            XCTAssertEqual(info.frameCount, 1)
            return info.frames[0]
        }
        // An empty first sub-block ends the extension (giflib reads on; see the diff fuzzer).
        XCTAssertEqual(try frame([0x21, 0xF9, 0]).nanoseconds, 100_000_000)
        // A block shorter than 4 bytes is ignored; a longer one is read from its first 4.
        XCTAssertEqual(try frame([0x21, 0xF9, 2, 0x08, 50, 0]).disposal, .none)
        let long = try frame([0x21, 0xF9, 6, 0x0C, 50, 0, 0, 9, 9, 0])
        XCTAssertEqual(long.disposal, .previous)
        XCTAssertEqual(long.nanoseconds, 500_000_000)
        // The last control extension before an image applies.
        XCTAssertEqual(
            try frame(GIFTestFile.control(delay: 7) + GIFTestFile.control(delay: 30)).nanoseconds, 300_000_000)
    }

    // MARK: Cursor

    func test_cursorFrames_equalAFreshCursorAdvancedToEachFrame() throws {
        for name in animations {
            let data = try GIFSuite.data(name)
            let sequential = try frames(of: data)
            for index in sequential.indices {
                var fresh = try GIFDecoder().frameCursor(for: data, options: DecodeOptions())
                var frame: Bitmap?
                for _ in 0...index { frame = try fresh.nextFrame().image }
                XCTAssertEqual(frame?.pixels, sequential[index].pixels, "\(name) frame \(index)")
            }
        }
    }

    func test_copiedCursor_resumesIdentically() throws {
        for name in animations {
            let data = try GIFSuite.data(name)
            var cursor = try GIFDecoder().frameCursor(for: data, options: DecodeOptions())
            let all = try frames(of: data)
            guard all.count > 2 else { continue }
            _ = try cursor.nextFrame()
            _ = try cursor.nextFrame()
            var keyframe = cursor
            var rest: [Bitmap] = []
            while !cursor.isFinished { rest.append(try cursor.nextFrame().image) }
            var resumed: [Bitmap] = []
            while !keyframe.isFinished { resumed.append(try keyframe.nextFrame().image) }
            XCTAssertEqual(resumed.map(\.pixels), rest.map(\.pixels), name)
            XCTAssertEqual(resumed.map(\.pixels), all.dropFirst(2).map(\.pixels), name)
        }
    }

    func test_maxPixelSize_reducesEveryFrame_asTheFullFrameAveraged() throws {
        for name in animations + ["past-screen.gif", "many-frames.gif"] {
            let data = try GIFSuite.data(name)
            let full = try frames(of: data)
            let small = try frames(of: data, options: DecodeOptions(scale: 2, maxPixelSize: 5))
            XCTAssertEqual(small.count, full.count)
            for (reduced, frame) in zip(small, full) {
                XCTAssertLessThanOrEqual(max(reduced.width, reduced.height), 5, name)
                XCTAssertEqual(reduced.scale, 2)
                XCTAssertEqual(reduced.pixels, frame.downsampled(maxPixelSize: 5).pixels, name)
            }
        }
    }

    func test_indexRaster_putsInterlacedRowsInPlace() throws {
        // interlaced.gif holds the script's pattern (x·3 + y·5 + x·y / 3) mod 16, 7 × 13.
        let data = try GIFSuite.data("interlaced.gif")
        let reader = GIFFrameReader(
            data: data, container: try GIFDecoder().container(of: data), strictness: .lenient)
        let (indices, damage) = reader.indexRaster(0)
        var expected: [UInt8] = []
        for y in 0..<13 {
            for x in 0..<7 { expected.append(UInt8((x * 3 + y * 5 + x * y / 3) % 16)) }
        }
        XCTAssertEqual(indices, expected)
        XCTAssertNil(damage)
        XCTAssertEqual(
            (0..<13).map { GIFInterlacing.frameRow(ofStoredRow: $0, height: 13) },
            [0, 8, 4, 12, 2, 6, 10, 1, 3, 5, 7, 9, 11])
    }

    // MARK: Still decode and damage

    func test_decode_isTheFirstFrame_atFullOrReducedSize() throws {
        for name in animations {
            let data = try GIFSuite.data(name)
            let first = try frames(of: data)[0]
            let still = try GIFDecoder().decode(data, options: DecodeOptions())
            XCTAssertEqual(still.image.pixels, first.pixels, name)
            XCTAssertFalse(still.isDamaged)
            let small = try GIFDecoder().decode(data, options: DecodeOptions(maxPixelSize: 6)).image
            XCTAssertEqual(small.pixels, first.downsampled(maxPixelSize: 6).pixels, name)
        }
    }

    func test_damagedFirstFrame_isReportedWithItsDamage_andThrownWhenStrict() throws {
        let data = try GIFSuite.data("eoi-early.gif")
        let lenient = try GIFDecoder().decode(data, options: DecodeOptions())
        XCTAssertTrue(lenient.isDamaged)
        XCTAssertEqual(lenient.damage as? GIFError, .missingPixels(frame: 0, decoded: 24, expected: 64))
        XCTAssertEqual(Array(lenient.image.pixels[(3 * 8 * 4)...]), [UInt8](repeating: 0, count: 5 * 8 * 4))
        XCTAssertThrowsError(try GIFDecoder().decode(data, options: DecodeOptions(strictness: .strict))) {
            XCTAssertEqual($0 as? GIFError, .missingPixels(frame: 0, decoded: 24, expected: 64))
        }
    }

    func test_invalidMinimumCodeSize_isDamage() throws {
        let data = Data(
            GIFTestFile.header(width: 2, height: 1) + [0x2C, 0, 0, 0, 0, 2, 0, 1, 0, 0, 12, 1, 0xFF, 0, 0x3B])
        let result = try GIFDecoder().decode(data, options: DecodeOptions())
        XCTAssertEqual(result.damage as? GIFError, .invalidMinimumCodeSize(frame: 0, size: 12))
        XCTAssertEqual(result.image.pixels, [0, 0, 0, 0, 0, 0, 0, 0])
    }

    func test_brokenFiles_giveTypedErrors() {
        func error(_ bytes: [UInt8]) -> GIFError? {
            do {
                _ = try GIFDecoder().animationInfo(of: Data(bytes))
                return nil
            } catch {
                return error
            }
        }
        XCTAssertEqual(error(Array("GIF88a".utf8) + [1, 0, 1, 0, 0, 0, 0]), .badSignature)
        XCTAssertEqual(error([]), .badSignature)
        XCTAssertEqual(error(Array("GIF8".utf8)), .truncatedBeforeFirstFrame(offset: 4))
        XCTAssertEqual(error(Array("GIF89a".utf8) + [1, 0, 1]), .truncatedBeforeFirstFrame(offset: 9))
        XCTAssertEqual(error(GIFTestFile.header(width: 1, height: 1) + [0x3B]), .noFrames)
        XCTAssertEqual(
            error(GIFTestFile.header(width: 1, height: 1) + [0x2C, 0, 0]), .truncatedBeforeFirstFrame(offset: 28))
        XCTAssertEqual(
            "\(GIFError.truncatedFrame(frame: 2, offset: 90))",
            "frame 2: the file ends at byte 90, inside its image data")
    }

    func test_frameWhollyPastTheCanvas_drawsNothing() throws {
        // Given: the fuzzer's first crash (a frame at x = 116 on a 6-pixel-wide screen trapped
        // in the canvas's clipping), and the same built here.
        let found = try Data(
            contentsOf: SharedTestData.packageRoot.appendingPathComponent(
                "Tests/WeakImageStoreTests/Fixtures/fuzz/gif-frame-past-canvas.gif"))
        let built = Data(
            GIFTestFile.header(width: 4, height: 4) + GIFTestFile.control(disposal: 2)
                + GIFTestFile.image(x: 100, y: 1, width: 2, height: 2, codes: GIFTestFile.literals([1, 2, 3, 1]))
                + GIFTestFile.image(width: 1, height: 1, codes: GIFTestFile.literals([2])) + [0x3B])
        // When
        let foundFrame = try GIFDecoder().decode(found, options: DecodeOptions()).image
        let builtFrames = try frames(of: built)
        // Then
        XCTAssertEqual(foundFrame.pixels, [UInt8](repeating: 0, count: 6 * 5 * 4))
        XCTAssertEqual(builtFrames[0].pixels, [UInt8](repeating: 0, count: 4 * 4 * 4))
        XCTAssertEqual(Array(builtFrames[1].pixels[0..<4]), [120, 200, 200, 255])
    }

    // MARK: Limits

    func test_tenThousandFrames_areRefused_beforeTheWalkGoesOn() throws {
        let bomb = GIFTestFile.animation(width: 2, height: 2, frames: 10_000)
        XCTAssertThrowsError(try GIFDecoder().animationInfo(of: bomb)) {
            XCTAssertEqual($0 as? GIFError, .tooManyFrames(limit: 4096))
        }
        XCTAssertNil(GIFDecoder().header(of: bomb))
        XCTAssertEqual(try GIFDecoder(maximumFrameCount: 10_000).animationInfo(of: bomb).frameCount, 10_000)
        XCTAssertThrowsError(try BitmapDecoder().frameCursor(for: bomb, options: DecodeOptions())) {
            XCTAssertEqual($0 as? BitmapDecoderError, .gif(.tooManyFrames(limit: 4096)))
        }
    }

    func test_frameLargerThanTheLimits_isRefused() {
        let data = Data(
            GIFTestFile.header(width: 4, height: 4) + GIFTestFile.image(width: 40000, height: 1, codes: [4, 5])
                + [0x3B])
        XCTAssertThrowsError(try GIFDecoder().animationInfo(of: data)) {
            XCTAssertEqual($0 as? GIFError, .frameTooLarge(frame: 0, width: 40000, height: 1, limit: .dimension(32768)))
            XCTAssertEqual("\($0)", "frame 0: 40000 × 1 exceeds the maximum dimension of 32768 pixels")
        }
        let small = GIFDecoder(maximumPixelCount: 15)
        XCTAssertThrowsError(try small.animationInfo(of: GIFTestFile.animation(width: 4, height: 4, frames: 1))) {
            XCTAssertEqual($0 as? GIFError, .logicalScreenTooLarge(width: 4, height: 4, limit: .pixelCount(15)))
        }
    }

    func test_zeroScreenSide_takesTheFirstFrameExtent_withinTheLimits() throws {
        // Given: the fuzzer's second find, a 2570 × 0 screen whose first frame sits at 65535,
        // 65535 (the canvas would have been 2570 × 65535), and a sound 0 × 0 screen.
        let found = try Data(
            contentsOf: SharedTestData.packageRoot.appendingPathComponent(
                "Tests/WeakImageStoreTests/Fixtures/fuzz/gif-zero-screen-far-frame.gif"))
        let sound = Data(
            GIFTestFile.header(width: 0, height: 0)
                + GIFTestFile.image(x: 1, y: 2, width: 3, height: 1, codes: GIFTestFile.literals([1, 2, 3])) + [0x3B])
        // Then
        XCTAssertThrowsError(try GIFDecoder().animationInfo(of: found)) {
            XCTAssertEqual(
                $0 as? GIFError, .logicalScreenTooLarge(width: 2570, height: 65535, limit: .dimension(32768)))
        }
        let info = try GIFDecoder().animationInfo(of: sound)
        XCTAssertEqual(info.width, 4)
        XCTAssertEqual(info.height, 3)
    }

    func test_decodingPeak_isReported_andItsLimitRefusesTheDecode() throws {
        let data = try GIFSuite.data("full-table-clear.gif")
        let peak = try XCTUnwrap(GIFDecoder().decodingPeakBytes(of: data, options: DecodeOptions()))
        XCTAssertGreaterThanOrEqual(peak, 96 * 96 * 4 * 3 + 96 * 96)
        XCTAssertThrowsError(
            try GIFDecoder(maximumDecodingBytes: peak - 1).decode(data, options: DecodeOptions())
        ) {
            XCTAssertEqual($0 as? GIFError, .decodeTooLarge(bytesNeeded: peak, limit: peak - 1))
        }
        XCTAssertNoThrow(try GIFDecoder(maximumDecodingBytes: peak).decode(data, options: DecodeOptions()))
        XCTAssertTrue(BitmapDecoderError.gif(.decodeTooLarge(bytesNeeded: 2, limit: 1)).exceedsSizeLimit)
        XCTAssertFalse(BitmapDecoderError.gif(.tooManyFrames(limit: 1)).exceedsSizeLimit)
        XCTAssertFalse(BitmapDecoderError.gif(.badSignature).exceedsSizeLimit)
    }

    // MARK: BitmapDecoder

    func test_bitmapDecoder_recognisesGIFByContent_andDecodesTheFirstFrame() throws {
        let data = try GIFSuite.data("real-phpmyadmin-ajax-clock.gif")
        XCTAssertEqual(BitmapDecoder.format(of: data), .gif)
        let header = try XCTUnwrap(BitmapDecoder().header(of: data))
        XCTAssertEqual(header, ImageHeader(width: 16, height: 16, format: .gif, frameCount: 12))
        let first = try frames(of: data)[0]
        XCTAssertEqual(try BitmapDecoder().decode(data, scale: 1).pixels, first.pixels)
        let result = try BitmapDecoder().decode(data, options: DecodeOptions(header: header))
        XCTAssertEqual(result.image.pixels, first.pixels)
        XCTAssertEqual(
            BitmapDecoder().decodingPeakBytes(of: data, options: DecodeOptions()),
            GIFDecoder().decodingPeakBytes(of: data, options: DecodeOptions()))
        let cursor = try XCTUnwrap(try BitmapDecoder().frameCursor(for: data, options: DecodeOptions()))
        XCTAssertEqual(cursor.info.frameCount, 12)
        let animated = try XCTUnwrap(try BitmapDecoder().animatedFrames(of: data, options: DecodeOptions()))
        XCTAssertEqual(animated.cursor.info, cursor.info)
    }

    func test_bitmapDecoder_wrapsDamageWhenStrict() throws {
        let data = try GIFSuite.data("code-beyond-table.gif")
        XCTAssertTrue(try BitmapDecoder().decode(data, options: DecodeOptions()).isDamaged)
        XCTAssertThrowsError(try BitmapDecoder().decode(data, options: DecodeOptions(strictness: .strict))) {
            XCTAssertEqual($0 as? BitmapDecoderError, .gif(.lzwCodeBeyondTable(frame: 0, code: 14, nextFree: 9)))
        }
    }
}

import ImageStoreTestSupport
import XCTest

@testable import ImageCodecs

/// Frames that set every pixel skip the copy of the previous canvas (GIF without a transparent
/// index, APNG frames that blend source over the whole canvas) and are decoded straight into their
/// own buffer: what each returns must still be exactly its frame, and stay so while later frames
/// are decoded.
final class FrameReuseTests: XCTestCase {
    /// Index patterns that exercise every LZW copy: long runs (strings far behind), short
    /// repeats (strings a few bytes behind, KwKwK), noise (literals), and a gradient.
    private func indices(frame: Int, side: Int) -> [UInt8] {
        (0..<side * side).map { pixel in
            let x = pixel % side
            let y = pixel / side
            switch (y / 8 + frame) % 4 {
            case 0: return UInt8((x / 13 + frame) % 7)
            case 1: return UInt8((x % 3 + frame) % 5)
            case 2: return UInt8((x &* 7919 &+ y &* 104_729 &+ frame &* 31) % 61)
            default: return UInt8((x + y + frame) % 64)
            }
        }
    }

    private var palette: [UInt8] {
        var palette: [UInt8] = []
        for entry in 0..<64 {
            palette += [UInt8(entry * 4), UInt8(255 - entry * 4), UInt8(entry * 37 % 256)]
        }
        return palette
    }

    private func rgba(_ indices: [UInt8]) -> [UInt8] {
        let palette = palette
        var pixels: [UInt8] = []
        for index in indices.map(Int.init) {
            pixels += [palette[index * 3], palette[index * 3 + 1], palette[index * 3 + 2], 255]
        }
        return pixels
    }

    func test_gifFramesWithoutTransparency_areEachTheirOwn_andStaySo() throws {
        // Given: full-canvas frames with no transparent index, each a different pattern
        let side = 67
        let frames = (0..<5).map { indices(frame: $0, side: side) }
        let file = GIFEncoder.encode(
            width: side, height: side, palette: palette,
            frames: frames.map { GIFEncoder.Frame(indices: $0, width: side, height: side) })
        var cursor = try XCTUnwrap(GIFDecoder().frameCursor(for: file, options: DecodeOptions()))
        // When: every frame is decoded and kept
        var decoded: [Bitmap] = []
        while !cursor.isFinished { decoded.append(try cursor.nextFrame().image) }
        // Then
        XCTAssertEqual(decoded.map(\.pixels), frames.map(rgba))
    }

    func test_gifFrameWithTransparency_afterWholeFrames_keepsTheCanvasUnderIt() throws {
        // Given: a whole frame, then one whose index 0 is transparent
        let side = 20
        let first = indices(frame: 0, side: side)
        let second = (0..<side * side).map { UInt8($0 % 2 == 0 ? 0 : 5) }
        let file = GIFEncoder.encode(
            width: side, height: side, palette: palette,
            frames: [
                GIFEncoder.Frame(indices: first, width: side, height: side),
                GIFEncoder.Frame(indices: second, width: side, height: side, transparentIndex: 0),
            ])
        var cursor = try XCTUnwrap(GIFDecoder().frameCursor(for: file, options: DecodeOptions()))
        // When
        let shownFirst = try cursor.nextFrame().image
        let shownSecond = try cursor.nextFrame().image
        // Then
        let expected = zip(first, second).map { under, over in over == 0 ? under : over }
        XCTAssertEqual(shownSecond.pixels, rgba(expected))
        XCTAssertEqual(shownFirst.pixels, rgba(first), "the first frame is not changed by the second")
    }

    func test_apngFrames_opaqueAndTranslucent_areEachTheirOwn_andStaySo() throws {
        for alpha: UInt8 in [255, 200] {
            // Given: whole-canvas frames blending source, stored as RGB when opaque
            let side = 33
            let frames = (0..<4).map { frame in
                rgba(indices(frame: frame, side: side)).enumerated().map { $0.offset % 4 == 3 ? alpha : $0.element }
            }
            let file = APNGEncoder.encode(width: side, height: side, frames: frames, delayMilliseconds: 40)
            var cursor = try XCTUnwrap(PNGDecoder().frameCursor(for: file, options: DecodeOptions()))
            // When
            var decoded: [Bitmap] = []
            while !cursor.isFinished { decoded.append(try cursor.nextFrame().image) }
            // Then
            XCTAssertEqual(decoded.map(\.pixels), frames, "alpha \(alpha)")
        }
    }
}

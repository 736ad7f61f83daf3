import XCTest

@testable import ImageCodecs

/// A reader that fills each frame's rectangle with one colour, for composition tests.
private struct SolidFrames: AnimationFrameReading {
    let colors: [[UInt8]]

    func composeFrame(_ index: Int, of info: AnimationInfo, onto canvas: inout AnimationCanvas) -> Bool {
        let frame = info.frames[index]
        let row = [UInt8](repeatElement(colors[index], count: frame.width).joined())
        row.withUnsafeBufferPointer { row in
            for y in 0..<frame.height { canvas.composeRow(row, at: y, of: frame) }
        }
        return false
    }
}

final class AnimationCompositionTests: XCTestCase {
    private func frame(
        _ x: Int, _ y: Int, _ width: Int, _ height: Int, _ disposal: AnimationDisposal = .none,
        _ blend: AnimationBlend = .source, milliseconds: Int = 100
    ) -> AnimationFrameInfo {
        AnimationFrameInfo(
            duration: Double(milliseconds) / 1000, x: x, y: y, width: width, height: height, disposal: disposal,
            blend: blend)
    }

    private func cursor(_ frames: [AnimationFrameInfo], colors: [[UInt8]], loopCount: Int = 0) -> AnimationFrameCursor {
        AnimationFrameCursor(
            info: AnimationInfo(
                width: 2, height: 2, loopCount: loopCount, frames: frames, format: ImageFormat(name: "test")),
            reader: SolidFrames(colors: colors), options: DecodeOptions())
    }

    private let red: [UInt8] = [255, 0, 0, 255]
    private let green: [UInt8] = [0, 255, 0, 255]
    private let clear: [UInt8] = [0, 0, 0, 0]

    func test_disposals_leave_clear_orRestore_theRectangle() throws {
        // Given: a full red frame, then a green top-left pixel disposed each way, then nothing new
        for (disposal, expected) in [
            (AnimationDisposal.none, green), (.background, clear), (.previous, red),
        ] {
            var frames = cursor(
                [frame(0, 0, 2, 2), frame(0, 0, 1, 1, disposal), frame(1, 1, 1, 1)],
                colors: [red, green, red])
            // When
            _ = try frames.nextFrame()
            let second = try frames.nextFrame().image
            let third = try frames.nextFrame().image
            // Then
            XCTAssertEqual(Array(second.pixels[0..<4]), green, "\(disposal): the frame is drawn")
            XCTAssertEqual(Array(third.pixels[0..<4]), expected, "\(disposal) after it is shown")
            XCTAssertTrue(frames.isFinished)
        }
    }

    func test_blendOver_keepsTheCanvasUnderTransparentPixels_andMixesTranslucentOnes() throws {
        // Given
        let halfBlue: [UInt8] = [0, 0, 255, 128]
        var frames = cursor(
            [frame(0, 0, 2, 2), frame(0, 0, 1, 1, .none, .over), frame(1, 0, 1, 1, .none, .over)],
            colors: [red, clear, halfBlue])
        // When
        _ = try frames.nextFrame()
        _ = try frames.nextFrame()
        let image = try frames.nextFrame().image
        // Then: APNG's integer "over": u = 128·255, v = 127·255, alpha (u + v) / 255
        XCTAssertEqual(Array(image.pixels[0..<4]), red)
        XCTAssertEqual(Array(image.pixels[4..<8]), [127, 0, 128, 255])
    }

    func test_framesPastTheCanvas_areClipped() throws {
        // Given: a 2×2 frame at (1, 1) on a 2×2 canvas; only its top-left pixel shows
        var frames = cursor([frame(1, 1, 2, 2), frame(-5, -5, 1, 1)], colors: [green, red])
        // When
        let first = try frames.nextFrame().image
        let second = try frames.nextFrame().image
        // Then
        XCTAssertEqual(first.pixels, clear + clear + clear + green)
        XCTAssertEqual(second.pixels, first.pixels)
    }

    func test_aCopiedCursor_resumesFromItsFrame() throws {
        // Given
        var frames = cursor(
            [frame(0, 0, 2, 2), frame(0, 0, 1, 1, .previous), frame(1, 0, 1, 1, .background), frame(0, 1, 1, 1)],
            colors: [red, green, green, green])
        _ = try frames.nextFrame()
        var keyframe = frames
        // When
        let later = try (1..<4).map { _ in try frames.nextFrame().image.pixels }
        let replayed = try (1..<4).map { _ in try keyframe.nextFrame().image.pixels }
        // Then
        XCTAssertEqual(replayed, later)
    }

    func test_frames_areReducedToMaxPixelSize() throws {
        // Given
        var frames = AnimationFrameCursor(
            info: AnimationInfo(width: 4, height: 2, loopCount: 0, frames: [frame(0, 0, 4, 2)], format: .png),
            reader: SolidFrames(colors: [red]), options: DecodeOptions(scale: 2, maxPixelSize: 2))
        // When
        let image = try frames.nextFrame().image
        // Then
        XCTAssertEqual([image.width, image.height, image.scale], [2, 1, 2])
        XCTAssertEqual(frames.framePixelSize.width, 2)
        XCTAssertEqual(image.pixels, red + red)
    }

    func test_frameIndex_followsTheDurations_andEndsAfterTheLoops() {
        // Given: 100 ms and 300 ms, played twice
        let info = AnimationInfo(
            width: 1, height: 1, loopCount: 2,
            frames: [frame(0, 0, 1, 1), frame(0, 0, 1, 1, milliseconds: 300)], format: .png)
        // Then
        XCTAssertEqual(info.loopDuration, 0.4, accuracy: 1e-12)
        XCTAssertEqual(info.frameIndex(at: 0), 0)
        XCTAssertEqual(info.frameIndex(at: 0.099), 0)
        XCTAssertEqual(info.frameIndex(at: 0.1), 1)
        XCTAssertEqual(info.frameIndex(at: 0.45), 0)
        XCTAssertEqual(info.frameIndex(at: 0.799), 1)
        XCTAssertNil(info.frameIndex(at: 0.8))
        var forever = info
        forever.loopCount = 0
        XCTAssertEqual(forever.frameIndex(at: 3600.15), 1)
    }
}

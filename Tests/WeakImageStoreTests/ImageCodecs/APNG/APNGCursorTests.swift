import XCTest

@testable import ImageCodecs

/// The cursor over an APNG: a copy is a keyframe, and reduced frames are the full ones averaged.
final class APNGCursorTests: XCTestCase {
    private let files = ["operations-rgba8.png", "split-fdat.png", "interlaced-palette4.png", "pillow-rgba.png"]

    func test_copiedCursor_resumesIdentically_fromEveryFrame() throws {
        for file in files {
            // Given
            let data = try APNGSuite.data(file)
            var cursor = try XCTUnwrap(PNGDecoder().frameCursor(for: data, options: DecodeOptions()))
            let expected = try APNGSuite.frames(&cursor).frames
            var walker = try XCTUnwrap(PNGDecoder().frameCursor(for: data, options: DecodeOptions()))
            for start in 0..<expected.count {
                // When: a copy taken before frame `start` decodes the rest
                var copy = walker
                let rest = try APNGSuite.frames(&copy).frames
                // Then
                XCTAssertEqual(rest.map(\.pixels), expected[start...].map(\.pixels), "\(file) from frame \(start)")
                XCTAssertEqual(copy.nextFrameIndex, expected.count)
                _ = try walker.nextFrame()
            }
            XCTAssertTrue(walker.isFinished)
        }
    }

    func test_cursor_matchesAFreshCursor_atEveryFrame() throws {
        for file in files {
            // Given
            let data = try APNGSuite.data(file)
            var cursor = try XCTUnwrap(PNGDecoder().frameCursor(for: data, options: DecodeOptions()))
            var index = 0
            while !cursor.isFinished {
                // When: the long-lived cursor's frame, and a fresh cursor's after as many frames
                let frame = try cursor.nextFrame().image
                var fresh = try XCTUnwrap(PNGDecoder().frameCursor(for: data, options: DecodeOptions()))
                var freshFrame: Bitmap?
                for _ in 0...index { freshFrame = try fresh.nextFrame().image }
                // Then
                XCTAssertEqual(frame.pixels, freshFrame?.pixels, "\(file) frame \(index)")
                index += 1
            }
        }
    }

    func test_maxPixelSize_reducesEveryFrame_asTheFullFrameAveraged() throws {
        for file in files {
            // Given
            let data = try APNGSuite.data(file)
            var full = try XCTUnwrap(PNGDecoder().frameCursor(for: data, options: DecodeOptions()))
            var reduced = try XCTUnwrap(
                PNGDecoder().frameCursor(for: data, options: DecodeOptions(scale: 2, maxPixelSize: 5)))
            let target = try XCTUnwrap(ThumbnailSize(width: full.info.width, height: full.info.height, maxPixelSize: 5))
            // When
            let fullFrames = try APNGSuite.frames(&full).frames
            let reducedFrames = try APNGSuite.frames(&reduced).frames
            // Then
            XCTAssertEqual(reducedFrames.count, fullFrames.count)
            for (index, (small, large)) in zip(reducedFrames, fullFrames).enumerated() {
                XCTAssertEqual(small.width, reduced.framePixelSize.width)
                XCTAssertLessThanOrEqual(max(small.width, small.height), 5)
                XCTAssertEqual(small.scale, 2)
                XCTAssertEqual(small.pixels, large.averaged(to: target).pixels, "\(file) frame \(index)")
            }
        }
    }

    func test_frameTiming_followsTheBrowserRule() throws {
        // Given: delays 0/0, 1/100, 1/0 (den 0 is 100), 2/100, 11/1000, 7/0, 65535/65535, 1/1
        let info = try XCTUnwrap(PNGDecoder().animationInfo(of: APNGSuite.data("delays.png")))
        // When
        let durations = info.frames.map { $0.nanoseconds / 1_000_000 }
        // Then: 10 ms or less plays as 100 ms
        XCTAssertEqual(
            durations,
            [100, 100, 100, 20, 11, 70, 1000, 1000])
        XCTAssertEqual(info.loopCount, 1)
        XCTAssertEqual(info.frameIndex(at: 0.25), 2)
    }

    func test_disposePreviousOnTheFirstFrame_playsAsBackground() throws {
        // Given: operations-rgba8.png's first frame says dispose_op 2 (previous)
        let info = try XCTUnwrap(PNGDecoder().animationInfo(of: APNGSuite.data("operations-rgba8.png")))
        // Then
        XCTAssertEqual(info.frames[0].disposal, .background)
        XCTAssertEqual(info.frames[5].disposal, .previous)
        XCTAssertEqual(info.frames.map(\.blend).filter { $0 == .over }.count, 7)
    }

    func test_truncatedFile_drawsTheRowsBeforeTheCut_andReportsTheLastFrameDamaged() throws {
        // Given
        let data = try APNGSuite.data("truncated-in-frame.png")
        var cursor = try XCTUnwrap(PNGDecoder().frameCursor(for: data, options: DecodeOptions()))
        // When
        var damage: [Bool] = []
        var frames: [Bitmap] = []
        while !cursor.isFinished {
            let result = try cursor.nextFrame()
            damage.append(result.isDamaged)
            frames.append(result.image)
        }
        // Then: the last frame drew something (its first rows), not all of it
        XCTAssertEqual(damage, [false, false, false, true])
        XCTAssertNotEqual(frames[3].pixels, frames[2].pixels)
    }
}

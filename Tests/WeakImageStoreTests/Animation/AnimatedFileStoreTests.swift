import Foundation
import ImageStoreTestSupport
import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

/// GIFs and APNGs through the whole store: the test support's encoders write them, the built-in
/// decoders read them back frame for frame.
final class AnimatedFileStoreTests: XCTestCase {
    /// Three 4 × 2 frames, each a different solid colour.
    private let colors: [[UInt8]] = [[255, 0, 0, 255], [0, 255, 0, 255], [0, 0, 255, 255]]

    private func gif() -> Data {
        GIFEncoder.encode(
            width: 4, height: 2, palette: colors.flatMap { Array($0.prefix(3)) },
            frames: (0..<3).map {
                GIFEncoder.Frame(indices: [UInt8](repeating: UInt8($0), count: 8), width: 4, height: 2)
            })
    }

    private func apng() -> Data {
        APNGEncoder.encode(
            width: 4, height: 2, frames: colors.map { [UInt8](repeatElement($0, count: 8).joined()) },
            delayMilliseconds: 40)
    }

    func test_encodedGIFAndAPNG_decodeFrameForFrame() throws {
        for (name, data) in [("gif", gif()), ("apng", apng())] {
            // When
            var cursor = try XCTUnwrap(try BitmapDecoder().frameCursor(for: data, options: DecodeOptions()), name)
            let frames = try (0..<3).map { _ in try cursor.nextFrame().image.pixels }
            // Then
            XCTAssertEqual(frames, colors.map { [UInt8](repeatElement($0, count: 8).joined()) }, name)
            XCTAssertEqual(cursor.info.frames[0].duration, 0.04, accuracy: 1e-9, name)
            XCTAssertEqual(try BitmapDecoder().decode(data, scale: 1).pixels, frames[0], "\(name): the first frame")
        }
    }

    func test_theStore_sharesAGIFAndAnAPNG_andImageForIsTheFirstFrame() throws {
        // Given
        let directory = TestDirectory()
        directory.write("wave.gif", [UInt8](gif()))
        directory.write("spin.png", [UInt8](apng()))
        let store = ImageStore(ImageStore<Bitmap>.Configuration(directories: [directory.url]))
        for name in ["wave.gif", "spin"] {
            // When
            let animation = try store.loadAnimation(for: .named(name))
            // Then
            XCTAssertEqual(animation.frameCount, 3, name)
            XCTAssertEqual(try animation.frame(at: 2).pixels[0..<4], [0, 0, 255, 255], name)
            XCTAssertEqual(store.image(named: name)?.pixels[0..<4], [255, 0, 0, 255], "\(name): the first frame")
            XCTAssertTrue(animation === (try store.loadAnimation(for: .named(name))), name)
        }
    }

    func test_aLongGIF_survivesTheLZWTableFilling() throws {
        // Given: noise over 64 colours, enough codes to fill the table several times
        var generator = SeededGenerator(seed: 7)
        let indices = (0..<(128 * 128)).map { _ in UInt8(generator.int(in: 0...63)) }
        var palette: [UInt8] = []
        for colour in 0..<64 { palette += [UInt8(colour * 4), UInt8(255 - colour * 4), 7] }
        let data = GIFEncoder.encode(
            width: 128, height: 128, palette: palette,
            frames: [GIFEncoder.Frame(indices: indices, width: 128, height: 128)])
        // When
        let bitmap = try BitmapDecoder().decode(data, scale: 1)
        // Then
        XCTAssertEqual(
            (0..<indices.count).map { bitmap.pixels[$0 * 4] }, indices.map { palette[Int($0) * 3] }, "every index")
    }

    func test_anAnimationWithABrokenStructure_showsItsStillImage_asBrowsersDo() throws {
        // Given: an APNG whose sequence numbers skip one, which the frame cursor refuses
        let directory = TestDirectory()
        directory.write("gap.png", [UInt8](try APNGSuite.data("sequence-gap.png")))
        let store = ImageStore(ImageStore<Bitmap>.Configuration(directories: [directory.url]))
        XCTAssertThrowsError(
            try BitmapDecoder().frameCursor(for: try APNGSuite.data("sequence-gap.png"), options: DecodeOptions()))
        // When
        let animation = try store.loadAnimation(for: .named("gap"))
        // Then
        XCTAssertEqual(animation.frameCount, 1)
        XCTAssertEqual(try animation.frame(at: 0).pixels, store.image(named: "gap")?.pixels)
    }
}

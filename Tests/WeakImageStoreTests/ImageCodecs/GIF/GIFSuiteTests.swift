import Foundation
import XCTest

@testable import ImageCodecs

/// Every file of the GIF suite against its manifest line and ImageMagick's (or, where browsers
/// differ, the script's) composited frames.
final class GIFSuiteTests: XCTestCase {
    func test_everySuiteFile_matchesItsManifest_andReferenceFrames() throws {
        let entries = try GIFSuite.entries()
        let hashes = try GIFSuite.frameHashes()
        XCTAssertGreaterThanOrEqual(entries.count, 45)
        for entry in entries {
            let data = try GIFSuite.data(entry.file)
            let decoder = GIFDecoder()
            guard entry.status != .error else {
                XCTAssertThrowsError(try decoder.animationInfo(of: data), entry.file)
                continue
            }
            let info = try decoder.animationInfo(of: data)
            XCTAssertEqual(info.width, entry.width, entry.file)
            XCTAssertEqual(info.height, entry.height, entry.file)
            XCTAssertEqual(info.frameCount, entry.frameCount, entry.file)
            XCTAssertEqual(info.loopCount, entry.loopCount, entry.file)
            XCTAssertEqual(info.frames.map { $0.nanoseconds / 1_000_000 }, entry.durations, entry.file)
            XCTAssertEqual(info.format, .gif)

            var cursor = try decoder.frameCursor(for: data, options: DecodeOptions())
            var damagedFrames = 0
            var frame = 0
            while !cursor.isFinished {
                let result = try cursor.nextFrame()
                if result.isDamaged { damagedFrames += 1 }
                XCTAssertEqual(
                    GIFSuite.normalisedHash(result.image), hashes[entry.file]?[frame], "\(entry.file) frame \(frame)")
                frame += 1
            }
            XCTAssertEqual(damagedFrames > 0, entry.status == .damaged, entry.file)
        }
    }

    func test_damagedSuiteFiles_throwWhenStrict() throws {
        let damaged = try GIFSuite.entries().filter { $0.status == .damaged }
        XCTAssertEqual(damaged.count, 3)
        for entry in damaged {
            var cursor = try GIFDecoder().frameCursor(
                for: try GIFSuite.data(entry.file), options: DecodeOptions(strictness: .strict))
            var thrown: BitmapDecoderError?
            while !cursor.isFinished, thrown == nil {
                do { _ = try cursor.nextFrame() } catch { thrown = error }
            }
            guard case .gif = thrown else { return XCTFail("\(entry.file): \(String(describing: thrown))") }
        }
    }

    func test_damagedFiles_nameTheirDamage() throws {
        func damage(_ file: String) throws -> GIFError? {
            var cursor = try GIFDecoder().frameCursor(
                for: try GIFSuite.data(file), options: DecodeOptions(strictness: .strict))
            do {
                while !cursor.isFinished { _ = try cursor.nextFrame() }
            } catch {
                guard case .gif(let gif) = error else { return nil }
                return gif
            }
            return nil
        }
        XCTAssertEqual(try damage("code-beyond-table.gif"), .lzwCodeBeyondTable(frame: 0, code: 14, nextFree: 9))
        XCTAssertEqual(try damage("eoi-early.gif"), .missingPixels(frame: 0, decoded: 24, expected: 64))
        let truncated = try GIFSuite.data("truncated-in-frame.gif")
        XCTAssertEqual(try damage("truncated-in-frame.gif"), .truncatedFrame(frame: 1, offset: truncated.count))
        XCTAssertEqual(
            "\(GIFError.lzwCodeBeyondTable(frame: 3, code: 4097, nextFree: 312))",
            "frame 3: LZW code 4097 beyond the table (next free 312)")
    }

    func test_errorFiles_giveTypedSizeErrors() throws {
        XCTAssertThrowsError(try GIFDecoder().animationInfo(of: try GIFSuite.data("huge-screen-tiny-frames.gif"))) {
            XCTAssertEqual(
                $0 as? GIFError, .logicalScreenTooLarge(width: 65535, height: 65535, limit: .dimension(32768)))
        }
        XCTAssertThrowsError(try GIFDecoder().animationInfo(of: try GIFSuite.data("huge-screen-pixels.gif"))) {
            XCTAssertEqual(
                $0 as? GIFError, .logicalScreenTooLarge(width: 20000, height: 20000, limit: .pixelCount(67_108_864)))
        }
        XCTAssertEqual(
            "\(GIFError.logicalScreenTooLarge(width: 100_000, height: 2, limit: .dimension(32768)))",
            "logical screen 100000 × 2 exceeds the maximum dimension of 32768 pixels")
    }
}

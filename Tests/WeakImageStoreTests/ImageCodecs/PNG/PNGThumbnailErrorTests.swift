import Foundation
import ImageStoreTestSupport
import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

/// A thumbnail decode meets the same limits and reports the same typed errors as a full decode.
final class PNGThumbnailErrorTests: XCTestCase {
    func test_hugeHeader_isRefused_evenForATinyThumbnail() {
        // Given: a valid file head declaring 100 000 × 100 000 pixels
        let file = PNGFile.file(
            PNGFile.chunk("IHDR", PNGFile.header(width: 100_000, height: 100_000, bitDepth: 8, colorType: 6)),
            PNGFile.chunk("IEND")
        )
        // When / Then
        XCTAssertThrowsError(try PNGDecoder().decode(file, scale: 1, maxPixelSize: 64)) { error in
            XCTAssertEqual(
                error as? PNGError, .imageTooLarge(width: 100_000, height: 100_000, limit: .dimension(32_768))
            )
        }
        XCTAssertEqual(PNGDecoder().pixelSize(of: file).map { [$0.width, $0.height] }, [100_000, 100_000])
    }

    func test_pixelSize_isNil_forAFileThatIsNotAPNG() {
        XCTAssertNil(PNGDecoder().pixelSize(of: Data("GIF89a, not a PNG at all, padded out".utf8)))
    }

    func test_largeMaxPixelSize_returnsExactlyTheFullDecode() throws {
        // Given
        let data = try PNGTestFiles.suiteFile("basn6a08.png")
        // When
        let full = try PNGDecoder().decode(data, scale: 2)
        let same = try PNGDecoder().decode(data, scale: 2, maxPixelSize: 32)
        // Then
        XCTAssertEqual([same.width, same.height, same.scale], [32, 32, 2])
        XCTAssertEqual(same.pixels, full.pixels)
    }

    func test_everyCorruptedImageData_throwsTheFullDecodesError() throws {
        // Given: single bytes of the image data changed (CRCs repaired), so the damage reaches
        // inflate and unfiltering, in gray, RGB, palette and RGBA files
        var generator = SeededGenerator(seed: 11)
        var compared = 0
        for name in ["basn0g08.png", "basn2c08.png", "basn3p08.png", "basn6a08.png", "f04n2c08.png"] {
            let original = [UInt8](try PNGTestFiles.suiteFile(name))
            for _ in 0..<40 {
                let file = Self.corruptingImageData(original, using: &generator)
                // When
                let fullError = Self.error { try PNGDecoder().decode(file, scale: 1) }
                let thumbnailError = Self.error { try PNGDecoder().decode(file, scale: 1, maxPixelSize: 7) }
                // Then
                XCTAssertEqual(thumbnailError, fullError, name)
                compared += fullError == nil ? 0 : 1
            }
        }
        XCTAssertGreaterThan(compared, 50, "most corruptions should be errors")
    }

    func test_everyTruncation_throwsTheFullDecodesError() throws {
        let original = [UInt8](try PNGTestFiles.suiteFile("basn2c08.png"))
        for length in stride(from: 0, to: original.count, by: 7) {
            let file = Data(original.prefix(length))
            XCTAssertEqual(
                Self.error { try PNGDecoder().decode(file, scale: 1, maxPixelSize: 7) },
                Self.error { try PNGDecoder().decode(file, scale: 1) }, "cut at \(length)"
            )
        }
    }

    /// The PNG error `body` throws, or `nil`.
    private static func error(_ body: () throws -> Bitmap) -> PNGError? {
        do {
            _ = try body()
            return nil
        } catch {
            return error as? PNGError
        }
    }

    /// The file with one byte of its first IDAT chunk's data replaced and that chunk's CRC fixed.
    private static func corruptingImageData(_ file: [UInt8], using generator: inout SeededGenerator) -> Data {
        var bytes = file
        var offset = 8
        while offset + 12 <= bytes.count {
            let length =
                Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8
                | Int(bytes[offset + 3])
            if bytes[(offset + 4)..<(offset + 8)].elementsEqual("IDAT".utf8), length > 0 {
                let target = offset + 8 + Int(generator.next() % UInt64(length))
                bytes[target] ^= UInt8(truncatingIfNeeded: generator.next() | 1)
                let rebuilt = PNGFile.chunk("IDAT", Array(bytes[(offset + 8)..<(offset + 8 + length)]))
                bytes.replaceSubrange(offset..<(offset + 12 + length), with: rebuilt)
                break
            }
            offset += 12 + length
        }
        return Data(bytes)
    }

    func test_tooMuchImageData_isDiscardedByTheThumbnailToo() throws {
        // 40 × 30 gray, then 500 bytes more than the image needs: libpng and the full decode use
        // what the image needs.
        let rows: [UInt8] = (0..<30).flatMap { row -> [UInt8] in [0] + (0..<40).map { UInt8(($0 * 5 + row) % 256) } }
        let file = PNGFile.png(
            width: 40, height: 30, colorType: 0, filteredData: rows + [UInt8](repeating: 9, count: 500))
        let decoder = PNGDecoder()

        let full = try decoder.decode(file, scale: 1)
        let thumbnail = try decoder.decode(file, scale: 1, maxPixelSize: 16)

        XCTAssertEqual(thumbnail.pixels, full.downsampled(maxPixelSize: 16).pixels)
    }

    func test_surplusLongerThanTheWindows_isStreamedToItsEnd_andCutShortIsTruncated() throws {
        // 40 × 30 gray in a stored block, then 200 KB more in a fixed block of matches (through
        // the streaming and the surplus windows' slides), then a stored block
        let rows: [UInt8] = (0..<30).flatMap { row -> [UInt8] in [1] + (0..<40).map { UInt8(($0 * 3 + row) % 7) } }
        var writer = DeflateStreamWriter()
        writer.storedBlock(rows, isFinal: false)
        writer.beginFixedBlock(isFinal: false)
        while writer.expectedOutput.count < 200_000 { writer.match(length: 258, distance: 1_000) }
        writer.endOfBlock()
        writer.storedBlock([UInt8](repeating: 9, count: 5_000), isFinal: true)
        let expected = writer.expectedOutput
        let stream = ZlibStream.wrap(writer.finish(), adlerOf: expected)
        func file(_ stream: [UInt8]) -> Data {
            PNGFile.file(
                PNGFile.chunk("IHDR", PNGFile.header(width: 40, height: 30, bitDepth: 8, colorType: 0)),
                PNGFile.chunk("IDAT", stream), PNGFile.chunk("IEND"))
        }
        let decoder = PNGDecoder()

        let full = try decoder.decode(file(stream), scale: 1)
        let thumbnail = try decoder.decode(file(stream), scale: 1, maxPixelSize: 16)
        XCTAssertEqual(thumbnail.pixels, full.downsampled(maxPixelSize: 16).pixels)

        let cut = file(Array(stream.prefix(stream.count - 2_000)))
        XCTAssertEqual(Self.error { try decoder.decode(cut, scale: 1, maxPixelSize: 16) }, .inflate(.truncated))
        XCTAssertEqual(Self.error { try decoder.decode(cut, scale: 1) }, .inflate(.truncated))
    }

}

import Foundation
import ImageStoreTestSupport
import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

/// The image data's CRC-32s are checked while it is inflated, yet every decode reports what a
/// decoder that checks each chunk before inflating would: a bad IDAT CRC before any defect that
/// comes after it.
final class PNGImageDataChecksumTests: XCTestCase {
    private typealias Files = PNGTestFiles

    private static let width = 120
    private static let height = 90
    /// RGB pixels with gradients and noise, so that the stream is mostly literals and the
    /// inflater's hot loop runs.
    private static let pixels: [UInt8] = {
        var random = SeededGenerator(seed: 77)
        return (0..<(width * height * 3)).map { index in
            let pixel = index / 3
            let (x, y) = (pixel % width, pixel / width)
            return UInt8(truncatingIfNeeded: x * (1 + index % 3) + y * 2 + Int(random.next() % 24))
        }
    }()
    private static let stream = ZlibStream.compressed(
        PNGRowFilter.filterAdaptively(pixels, width: width, height: height, bytesPerPixel: 3))
    /// Chunk sizes around the lane's eight-byte steps, an empty chunk, and long ones.
    private static let chunkSizes = [1, 7, 8, 9, 0, 13, 64, 1_000, 4_096, 4_096]

    private let header = PNGFile.chunk(
        "IHDR", PNGFile.header(width: UInt32(width), height: UInt32(height), bitDepth: 8, colorType: 2))
    private let end = PNGFile.chunk("IEND")

    /// The stream in IDAT chunks of ``chunkSizes``, the rest in the last one.
    private func imageDataChunks(stream: [UInt8] = stream) -> [[UInt8]] {
        var chunks: [[UInt8]] = []
        var offset = 0
        for size in Self.chunkSizes {
            chunks.append(Array(stream[offset..<(offset + size)]))
            offset += size
        }
        chunks.append(Array(stream[offset...]))
        return chunks.map { PNGFile.chunk("IDAT", $0) }
    }

    /// `chunk` with its stored CRC-32 changed, and the CRC-32 it should have.
    private func withBadCRC(_ chunk: [UInt8]) -> (chunk: [UInt8], declared: UInt32, computed: UInt32) {
        var bad = chunk
        bad[bad.count - 2] ^= 0x40
        let stored = { (bytes: [UInt8]) in bytes.suffix(4).reduce(UInt32(0)) { $0 << 8 | UInt32($1) } }
        return (bad, stored(bad), stored(chunk))
    }

    private func file(_ parts: [[UInt8]]) -> Data {
        Data(PNGFile.signature + parts.joined())
    }

    /// The error of the full decode (checked against a streamed one) and of a thumbnail decode,
    /// which must agree.
    private func decodingError(_ data: Data, file: StaticString = #filePath, line: UInt = #line) -> PNGError? {
        let full = Files.decodingError(data, file: file, line: line)
        var thumbnail: PNGError?
        do {
            _ = try PNGDecoder().decode(data, scale: 1, maxPixelSize: 16)
        } catch {
            thumbnail = error
        }
        XCTAssertEqual(thumbnail, full, "thumbnail decode's error", file: file, line: line)
        return full
    }

    func test_imageDataInChunksOfAnySize_decodes() throws {
        let data = file([header] + imageDataChunks() + [end])
        let bitmap = try Files.decodedBothWays(data).get()
        let rgba = stride(from: 0, to: Self.pixels.count, by: 3).flatMap { Self.pixels[$0..<($0 + 3)] + [255] }
        XCTAssertEqual(bitmap.pixels, rgba)
    }

    func test_everyImageDataChunk_hasItsCRCChecked() {
        let chunks = imageDataChunks()
        for index in chunks.indices {
            // Given: one chunk of image data with a wrong stored CRC-32
            var broken = chunks
            let bad = withBadCRC(chunks[index])
            broken[index] = bad.chunk
            // When / Then
            XCTAssertEqual(
                decodingError(file([header] + broken + [end])),
                .checksumMismatch(chunk: "IDAT", declared: bad.declared, computed: bad.computed), "chunk \(index)")
        }
    }

    func test_theFirstBadImageDataCRC_isReported_evenWhereTheStreamBreaksBeforeIt() {
        // Given: the stream broken in its third chunk (CRC repaired), a bad CRC in the last chunk
        // and in the sixth
        var stream = Self.stream
        stream[1 + 7 + 3] ^= 0xFF
        var chunks = imageDataChunks(stream: stream)
        let last = withBadCRC(chunks[chunks.count - 1])
        chunks[chunks.count - 1] = last.chunk
        let sixth = withBadCRC(chunks[5])
        // When / Then
        XCTAssertEqual(
            decodingError(file([header] + chunks + [end])),
            .checksumMismatch(chunk: "IDAT", declared: last.declared, computed: last.computed))
        chunks[5] = sixth.chunk
        XCTAssertEqual(
            decodingError(file([header] + chunks + [end])),
            .checksumMismatch(chunk: "IDAT", declared: sixth.declared, computed: sixth.computed))
    }

    func test_aBadImageDataCRC_comesBeforeEveryLaterDefect() {
        // Given: image data whose first chunk has a bad CRC-32
        var chunks = imageDataChunks()
        let bad = withBadCRC(chunks[0])
        chunks[0] = bad.chunk
        let expected = PNGError.checksumMismatch(chunk: "IDAT", declared: bad.declared, computed: bad.computed)
        var badEnd = end
        badEnd[badEnd.count - 1] ^= 1
        let later: [(String, [[UInt8]])] = [
            ("no IEND", chunks),
            ("IEND with a bad CRC", chunks + [badEnd]),
            ("an unknown critical chunk", chunks + [PNGFile.chunk("ZZZZ", [1, 2]), end]),
            ("too little image data", Array(chunks.prefix(3)) + [end]),
            (
                "a second PLTE after the data",
                [PNGFile.chunk("PLTE", [1, 2, 3])] + chunks + [
                    PNGFile.chunk("PLTE", [1, 2, 3]), end,
                ]
            ),
        ]
        for (defect, parts) in later {
            // When / Then
            XCTAssertEqual(decodingError(file([header] + parts)), expected, defect)
        }
    }

    func test_aBadImageDataCRC_comesBeforeDefectsFoundWithoutInflating() {
        // Given: one IDAT chunk with a bad CRC-32, in files that fail before inflating
        let tiny = withBadCRC(PNGFile.chunk("IDAT", ZlibStream.stored([0, 10, 20, 0, 30, 40])))
        let expected = PNGError.checksumMismatch(chunk: "IDAT", declared: tiny.declared, computed: tiny.computed)
        let huge = PNGFile.chunk("IHDR", PNGFile.header(width: 2_000, height: 2_000, bitDepth: 8, colorType: 0))
        let palette = PNGFile.chunk("IHDR", PNGFile.header(width: 2, height: 2, bitDepth: 8, colorType: 3))
        // When / Then: data too small for the image; a palette image without PLTE
        XCTAssertEqual(decodingError(file([huge, tiny.chunk, end])), expected)
        XCTAssertEqual(decodingError(file([palette, tiny.chunk, end])), expected)
    }

    func test_imageDataChunksAfterTheFirstRun_areStillCheckedWhenRead() {
        // Given: valid image data, then a text chunk, then an ignored IDAT with a bad CRC-32
        let ignored = withBadCRC(PNGFile.chunk("IDAT", [1, 2, 3]))
        let data = file([header] + imageDataChunks() + [PNGFile.chunk("tEXt", Array("a\0b".utf8)), ignored.chunk, end])
        // When / Then
        XCTAssertEqual(
            decodingError(data),
            .checksumMismatch(chunk: "IDAT", declared: ignored.declared, computed: ignored.computed))
    }
}

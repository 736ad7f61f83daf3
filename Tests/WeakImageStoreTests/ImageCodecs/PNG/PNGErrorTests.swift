import Foundation
import ImageStoreTestSupport
import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

/// Hand-made broken files: each defect is reported as its own, exact ``PNGError``.
final class PNGErrorTests: XCTestCase {
    private typealias Files = PNGTestFiles

    /// IHDR of a 2 × 2 8-bit gray image.
    private let grayHeader = PNGFile.chunk("IHDR", PNGFile.header(width: 2, height: 2, bitDepth: 8, colorType: 0))
    /// Its image data: two rows, filter type None.
    private let grayData = PNGFile.chunk("IDAT", ZlibStream.stored([0, 10, 20, 0, 30, 40]))
    private let end = PNGFile.chunk("IEND")

    /// The error decoding a file of the signature and `chunks` gives, `nil` if it decodes.
    private func decode(_ chunks: [UInt8]...) -> PNGError? {
        Files.decodingError(Data(PNGChunkReader.signature + chunks.joined()))
    }

    func test_validBaseFile_decodes() throws {
        let bitmap = try PNGDecoder().decode(PNGFile.file(grayHeader, grayData, end), scale: 1)
        XCTAssertEqual(bitmap.pixels, [10, 20, 30, 40])
    }

    // MARK: Signature and framing

    func test_wrongOrShortSignature_isRejected() {
        XCTAssertEqual(Files.decodingError(Data([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0B])), .badSignature)
        XCTAssertEqual(Files.decodingError(Data("GIF89a".utf8)), .badSignature)
        XCTAssertEqual(Files.decodingError(Data([0x89, 0x50, 0x4E])), .truncated(offset: 0))
        XCTAssertEqual(Files.decodingError(Data()), .truncated(offset: 0))
    }

    func test_chunkLengthAbove2GiB_isRejected() {
        let file = PNGFile.file([0x80, 0, 0, 0] + Array("IHDR".utf8) + [UInt8](repeating: 0, count: 20))
        XCTAssertEqual(Files.decodingError(file), .invalidChunkLength(offset: 8, length: 0x8000_0000))
    }

    func test_chunkTypeWithANonLetter_isRejected() {
        let file = PNGFile.file(grayHeader, PNGFile.chunk("ID@T", [1, 2]), grayData, end)
        XCTAssertEqual(Files.decodingError(file), .invalidChunkType(offset: 33, type: "ID@T"))
    }

    func test_fileEndingInsideAChunk_isTruncatedAtThatChunk() {
        let file = PNGFile.file(grayHeader, grayData, end)
        XCTAssertEqual(Files.decodingError(file.prefix(40)), .truncated(offset: 33))
        XCTAssertEqual(Files.decodingError(file.prefix(file.count - 1)), .truncated(offset: file.count - 12))
    }

    func test_wrongChunkCRC_isRejected() {
        var file = PNGFile.file(grayHeader, grayData, end)
        file[file.count - 1] ^= 0xFF
        XCTAssertEqual(
            Files.decodingError(file), .checksumMismatch(chunk: "IEND", declared: 0xAE42_607D, computed: 0xAE42_6082)
        )
    }

    // MARK: Header

    func test_invalidHeaderFields_areRejectedWithTheirValues() {
        func error(_ data: [UInt8]) -> PNGError? {
            decode(PNGFile.chunk("IHDR", data), grayData, end)
        }
        let valid = PNGFile.header(width: 2, height: 2, bitDepth: 8, colorType: 0)
        XCTAssertEqual(error(Array(valid.prefix(12))), .invalidHeaderLength(12))
        XCTAssertEqual(error(valid + [0]), .invalidHeaderLength(14))
        XCTAssertEqual(
            error(PNGFile.header(width: 0, height: 2, bitDepth: 8, colorType: 0)),
            .invalidDimensions(width: 0, height: 2)
        )
        XCTAssertEqual(
            error(PNGFile.header(width: 2, height: 0x8000_0000, bitDepth: 8, colorType: 0)),
            .invalidDimensions(width: 2, height: 0x8000_0000)
        )
        XCTAssertEqual(error(PNGFile.header(width: 2, height: 2, bitDepth: 8, colorType: 5)), .invalidColorType(5))
        for (bitDepth, colorType) in [(16, 3), (4, 2), (2, 6), (1, 4), (3, 0)] as [(UInt8, UInt8)] {
            XCTAssertEqual(
                error(PNGFile.header(width: 2, height: 2, bitDepth: bitDepth, colorType: colorType)),
                .invalidBitDepth(bitDepth, colorType: colorType)
            )
        }
        XCTAssertEqual(error(Array(valid.prefix(10)) + [1, 0, 0]), .invalidCompressionMethod(1))
        XCTAssertEqual(error(Array(valid.prefix(10)) + [0, 1, 0]), .invalidFilterMethod(1))
        XCTAssertEqual(error(Array(valid.prefix(10)) + [0, 0, 2]), .invalidInterlaceMethod(2))
    }

    // MARK: Chunks and their order

    func test_missingCriticalChunks_areNamed() {
        let gamma = PNGFile.chunk("gAMA", [0, 0, 0xB1, 0x8F])
        XCTAssertEqual(decode(gamma, grayHeader, grayData, end), .missingChunk("IHDR"))
        XCTAssertEqual(decode(), .missingChunk("IHDR"))
        XCTAssertEqual(decode(grayHeader, end), .missingChunk("IDAT"))
        XCTAssertEqual(decode(grayHeader, grayData), .missingChunk("IEND"))
        let paletteHeader = PNGFile.chunk("IHDR", PNGFile.header(width: 2, height: 2, bitDepth: 8, colorType: 3))
        XCTAssertEqual(decode(paletteHeader, grayData, end), .missingChunk("PLTE"))
        XCTAssertEqual(decode(paletteHeader, end), .missingChunk("IDAT"))
    }

    func test_criticalChunksOutOfOrder_areRejected() {
        let rgbHeader = PNGFile.chunk("IHDR", PNGFile.header(width: 1, height: 1, bitDepth: 8, colorType: 2))
        let rgbData = PNGFile.chunk("IDAT", ZlibStream.stored([0, 1, 2, 3]))
        let palette = PNGFile.chunk("PLTE", [1, 2, 3])
        XCTAssertEqual(decode(grayHeader, grayHeader, grayData, end), .chunkOrder(chunk: "IHDR", after: "IHDR"))
        XCTAssertEqual(decode(grayHeader, grayData, grayHeader, end), .chunkOrder(chunk: "IHDR", after: "IHDR"))
        XCTAssertEqual(decode(rgbHeader, palette, palette, rgbData, end), .chunkOrder(chunk: "PLTE", after: "PLTE"))
        let paletteHeader = PNGFile.chunk("IHDR", PNGFile.header(width: 1, height: 1, bitDepth: 8, colorType: 3))
        XCTAssertEqual(decode(paletteHeader, rgbData, palette, end), .missingChunk("PLTE"))
    }

    func test_unknownCriticalChunk_isRejected_butUnknownAncillaryChunkIsSkipped() throws {
        XCTAssertEqual(decode(grayHeader, PNGFile.chunk("ABCD", [1]), grayData, end), .unknownCriticalChunk("ABCD"))
        XCTAssertEqual(decode(grayHeader, grayData, PNGFile.chunk("ABCD"), end), .unknownCriticalChunk("ABCD"))
        let file = PNGFile.file(grayHeader, PNGFile.chunk("abCD", [1, 2, 3]), grayData, end)
        let bitmap = try PNGDecoder().decode(file, scale: 1)
        XCTAssertEqual(bitmap.pixels, [10, 20, 30, 40])
    }

    func test_malformedPaletteOfAPaletteImage_isRejected() {
        let paletteHeader = PNGFile.chunk("IHDR", PNGFile.header(width: 1, height: 1, bitDepth: 8, colorType: 3))
        let paletteData = PNGFile.chunk("IDAT", ZlibStream.stored([0, 0]))
        for byteCount in [0, 4, 771] {
            let palette = PNGFile.chunk("PLTE", [UInt8](repeating: 7, count: byteCount))
            XCTAssertEqual(decode(paletteHeader, palette, paletteData, end), .invalidPalette(byteCount: byteCount))
        }
    }

    // MARK: Image data

    func test_unknownFilterType_isRejectedWithItsRow() {
        let data = PNGFile.chunk("IDAT", ZlibStream.stored([0, 10, 20, 5, 30, 40]))
        XCTAssertEqual(decode(grayHeader, data, end), .badFilterType(5, row: 1))
    }

    func test_unknownFilterTypeInAnAdam7Pass_countsRowsAcrossPasses() {
        // 2 × 2 interlaced: pass 1 (1 × 1), pass 6 (1 × 1), pass 7 (2 × 1): rows 0, 1, 2.
        let header = PNGFile.chunk("IHDR", PNGFile.header(width: 2, height: 2, bitDepth: 8, colorType: 0, interlace: 1))
        let data = PNGFile.chunk("IDAT", ZlibStream.stored([0, 1, 0, 2, 9, 3, 4]))
        XCTAssertEqual(decode(header, data, end), .badFilterType(9, row: 2))
    }

    func test_imageDataTooShortOrWithABadChecksum_isRejected() {
        let short = PNGFile.chunk("IDAT", ZlibStream.stored([0, 10, 20, 0, 30]))
        XCTAssertEqual(decode(grayHeader, short, end), .inflate(.tooLittleData(expected: 6, actual: 5)))
        var stream = ZlibStream.stored([0, 10, 20, 0, 30, 40])
        stream[stream.count - 1] ^= 0x10
        guard case .inflate(.adlerMismatch) = decode(grayHeader, PNGFile.chunk("IDAT", stream), end) else {
            return XCTFail("expected an Adler-32 mismatch")
        }
    }

    func test_imageDataTooSmallToHoldTheImage_isRejectedBeforeDecompressing() {
        let header = PNGFile.chunk("IHDR", PNGFile.header(width: 2_000, height: 2_000, bitDepth: 8, colorType: 0))
        XCTAssertEqual(
            decode(header, grayData, end),
            .insufficientImageData(expectedBytes: 2_000 * 2_001, compressedBytes: 17)
        )
    }

    // MARK: Descriptions

    func test_everyError_hasADistinctDescription() {
        let errors: [PNGError] = [
            .badSignature, .truncated(offset: 8), .invalidChunkLength(offset: 8, length: 1 << 31),
            .invalidChunkType(offset: 8, type: "I\\x00HR"),
            .checksumMismatch(chunk: "IDAT", declared: 1, computed: 2), .invalidHeaderLength(12),
            .invalidDimensions(width: 0, height: 1), .invalidColorType(1), .invalidBitDepth(3, colorType: 2),
            .invalidCompressionMethod(1), .invalidFilterMethod(1), .invalidInterlaceMethod(2),
            .imageTooLarge(width: 1, height: 2, limit: .dimension(1)),
            .imageTooLarge(width: 1, height: 2, limit: .pixelCount(1)), .missingChunk("IDAT"),
            .chunkOrder(chunk: "PLTE", after: "IDAT"), .unknownCriticalChunk("ABCD"), .invalidPalette(byteCount: 4),
            .insufficientImageData(expectedBytes: 9, compressedBytes: 0),
            .badFilterType(5, row: 1), .inflate(.truncated),
        ]
        let inflateErrors: [InflateError] = [
            .badHeader(cmf: 1, flg: 2), .unsupportedMethod(cmf: 7), .presetDictionary, .badBlockType,
            .storedLengthMismatch(length: 1, complement: 1), .tooManyCodes(literalLength: 287, distance: 1),
            .invalidCodeLengths(.codeLength), .invalidCodeLengths(.literalLength), .invalidCodeLengths(.distance),
            .invalidRepeat, .missingEndOfBlock, .invalidCode(.literalLength),
            .distanceTooFarBack(distance: 2, available: 1),
            .truncated, .tooMuchData(expected: 1), .tooLittleData(expected: 2, actual: 1),
            .adlerMismatch(declared: 1, computed: 2),
        ]
        let descriptions = errors.map(\.description) + inflateErrors.map(\.description)
        XCTAssertEqual(Set(descriptions).count, descriptions.count, "descriptions must tell the errors apart")
        XCTAssertFalse(descriptions.contains(where: \.isEmpty))
        XCTAssertEqual(PNGError.badFilterType(5, row: 1).description, "invalid filter type 5 in row 1")
    }
}

import Foundation
import ImageStoreTestSupport
import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

/// Files libpng 1.6 decodes although an ancillary chunk or the image data is malformed, and the
/// critical defects it still rejects. Every expected value below is what libpng 1.6.39 produced
/// for the same file through `Scripts/libpng-shim` (`pngshim_decode_default`); the same files are
/// seeds of the differential fuzz target in `Fuzz/seeds/png-diff/`.
final class PNGLeniencyTests: XCTestCase {
    private typealias Files = PNGTestFiles

    /// 2 × 1 8-bit gray, pixels 1 and 128.
    private let grayHeader = PNGFile.chunk("IHDR", PNGFile.header(width: 2, height: 1, bitDepth: 8, colorType: 0))
    private let grayData = PNGFile.chunk("IDAT", ZlibStream.stored([0, 1, 128]))
    /// 2 × 1 8-bit RGB, pixels (1, 2, 3) and (4, 5, 6).
    private let rgbHeader = PNGFile.chunk("IHDR", PNGFile.header(width: 2, height: 1, bitDepth: 8, colorType: 2))
    private let rgbData = PNGFile.chunk("IDAT", ZlibStream.stored([0, 1, 2, 3, 4, 5, 6]))
    /// 2 × 1 8-bit palette, indices 0 and 1.
    private let paletteHeader = PNGFile.chunk("IHDR", PNGFile.header(width: 2, height: 1, bitDepth: 8, colorType: 3))
    private let paletteData = PNGFile.chunk("IDAT", ZlibStream.stored([0, 0, 1]))
    private let twoColors = PNGFile.chunk("PLTE", [1, 2, 3, 4, 5, 6])
    private let end = PNGFile.chunk("IEND")

    private let opaqueGray: [UInt8] = [1, 128]
    private let opaqueRGB: [UInt8] = [1, 2, 3, 255, 4, 5, 6, 255]

    /// Decodes the signature followed by `chunks`.
    private func decode(_ chunks: [UInt8]..., file: StaticString = #filePath, line: UInt = #line) throws -> Bitmap {
        try Files.decodedBothWays(
            Data(PNGChunkReader.signature + chunks.joined()), file: file, line: line
        ).get()
    }

    private func error(_ chunks: [UInt8]...) -> PNGError? {
        Files.decodingError(Data(PNGChunkReader.signature + chunks.joined()))
    }

    /// `chunk` with its CRC's last bit flipped.
    private func withBadCRC(_ chunk: [UInt8]) -> [UInt8] {
        var chunk = chunk
        chunk[chunk.count - 1] ^= 1
        return chunk
    }

    // MARK: tRNS key colors

    func test_grayKey_isMaskedToTheBitDepth() throws {
        // Given: key 0x0101 in an 8-bit image; 0x0006 in a 2-bit one (samples 0, 1, 2, 3)
        let key8 = PNGFile.chunk("tRNS", [0x01, 0x01])
        let header2 = PNGFile.chunk("IHDR", PNGFile.header(width: 4, height: 1, bitDepth: 2, colorType: 0))
        let key2 = PNGFile.chunk("tRNS", [0x00, 0x06])
        // When
        let eightBit = try decode(grayHeader, key8, grayData, end)
        let twoBit = try decode(header2, key2, PNGFile.chunk("IDAT", ZlibStream.stored([0, 0b0001_1011])), end)
        // Then: the keys act as 0x01 and 2
        XCTAssertEqual(eightBit.pixels, [1, 0, 128, 255])
        XCTAssertEqual(twoBit.pixels, [0, 255, 85, 255, 170, 0, 255, 255])
    }

    func test_rgbKey_isMaskedToTheBitDepth() throws {
        let key = PNGFile.chunk("tRNS", [0x01, 0x01, 0xFF, 0x02, 0x80, 0x03])
        let bitmap = try decode(rgbHeader, key, rgbData, end)
        XCTAssertEqual(bitmap.pixels, [1, 2, 3, 0, 4, 5, 6, 255])
    }

    // MARK: Bad CRCs

    func test_ancillaryChunkWithABadCRC_isDropped() throws {
        // Given
        let text = withBadCRC(PNGFile.chunk("tEXt", Array("Comment\0hi".utf8)))
        let key = withBadCRC(PNGFile.chunk("tRNS", [0, 1]))
        // When
        let withText = try decode(grayHeader, text, grayData, end)
        let withKey = try decode(grayHeader, key, grayData, end)
        let withBothKeys = try decode(grayHeader, key, PNGFile.chunk("tRNS", [0, 128]), grayData, end)
        let afterImageData = try decode(grayHeader, grayData, text, end)
        // Then: a dropped tRNS does not count as the first one
        XCTAssertEqual(withText.pixels, opaqueGray)
        XCTAssertEqual(withKey.format, .gray8)
        XCTAssertEqual(withKey.pixels, opaqueGray)
        XCTAssertEqual(withBothKeys.pixels, [1, 255, 128, 0])
        XCTAssertEqual(afterImageData.pixels, opaqueGray)
    }

    func test_criticalChunkWithABadCRC_isRejected() {
        let palette = withBadCRC(PNGFile.chunk("PLTE", [1, 2, 3]))
        guard case .checksumMismatch(chunk: "PLTE", _, _) = error(rgbHeader, palette, rgbData, end) else {
            return XCTFail("a PLTE with a bad CRC must be rejected, even in an RGB image")
        }
        guard case .checksumMismatch(chunk: "IDAT", _, _) = error(grayHeader, withBadCRC(grayData), end) else {
            return XCTFail("an IDAT with a bad CRC must be rejected")
        }
        guard case .checksumMismatch(chunk: "IEND", _, _) = error(grayHeader, grayData, withBadCRC(end)) else {
            return XCTFail("an IEND with a bad CRC must be rejected")
        }
    }

    // MARK: Malformed or misplaced tRNS

    func test_transparencyOfTheWrongLength_isIgnored() throws {
        XCTAssertEqual(try decode(grayHeader, PNGFile.chunk("tRNS", [0, 1, 2]), grayData, end).pixels, opaqueGray)
        XCTAssertEqual(try decode(rgbHeader, PNGFile.chunk("tRNS", [0, 1]), rgbData, end).pixels, opaqueRGB)
        XCTAssertEqual(
            try decode(paletteHeader, twoColors, PNGFile.chunk("tRNS", []), paletteData, end).pixels, opaqueRGB)
        let longer = PNGFile.chunk("tRNS", [0x10, 0x20, 0x30])
        XCTAssertEqual(try decode(paletteHeader, twoColors, longer, paletteData, end).pixels, opaqueRGB)
    }

    func test_transparencyInAnImageWithAlpha_isIgnored() throws {
        let header = PNGFile.chunk("IHDR", PNGFile.header(width: 1, height: 1, bitDepth: 8, colorType: 6))
        let bitmap = try decode(
            header, PNGFile.chunk("tRNS", [0, 1, 0, 2, 0, 3]),
            PNGFile.chunk("IDAT", ZlibStream.stored([0, 1, 2, 3, 4])), end
        )
        XCTAssertEqual(bitmap.pixels, [1, 2, 3, 4])
    }

    func test_secondTransparency_isIgnored_theFirstValidOneCounts() throws {
        let first = PNGFile.chunk("tRNS", [0, 1])
        let second = PNGFile.chunk("tRNS", [0, 128])
        XCTAssertEqual(try decode(grayHeader, first, second, grayData, end).pixels, [1, 0, 128, 255])
        let invalid = PNGFile.chunk("tRNS", [0, 1, 2])
        XCTAssertEqual(try decode(grayHeader, invalid, first, grayData, end).pixels, [1, 0, 128, 255])
    }

    func test_transparencyBeforeThePalette_isIgnoredOrCancelled() throws {
        // Palette image: the tRNS has no palette to apply to yet and is dropped.
        let alpha = PNGFile.chunk("tRNS", [0x10])
        XCTAssertEqual(try decode(paletteHeader, alpha, twoColors, paletteData, end).pixels, opaqueRGB)
        // RGB image: the PLTE that follows cancels it.
        let rgbKey = PNGFile.chunk("tRNS", [0, 1, 0, 2, 0, 3])
        XCTAssertEqual(try decode(rgbHeader, rgbKey, PNGFile.chunk("PLTE", [1, 2, 3]), rgbData, end).pixels, opaqueRGB)
        // Gray image: the PLTE is ignored, the key stays.
        let grayKey = PNGFile.chunk("tRNS", [0, 1])
        let gray = try decode(grayHeader, grayKey, PNGFile.chunk("PLTE", [1, 2, 3]), grayData, end)
        XCTAssertEqual(gray.pixels, [1, 0, 128, 255])
    }

    func test_transparencyBeforeAMissingPalette_reportsTheMissingPalette() {
        XCTAssertEqual(error(paletteHeader, PNGFile.chunk("tRNS", [0]), paletteData, end), .missingChunk("PLTE"))
    }

    func test_transparencyAfterTheImageData_isIgnored() throws {
        XCTAssertEqual(try decode(grayHeader, grayData, PNGFile.chunk("tRNS", [0, 1]), end).pixels, opaqueGray)
    }

    // MARK: Malformed or misplaced PLTE

    func test_paletteOfABadLength_inAGrayOrRGBImage_isIgnored() throws {
        XCTAssertEqual(try decode(grayHeader, PNGFile.chunk("PLTE", [1, 2, 3, 4]), grayData, end).pixels, opaqueGray)
        XCTAssertEqual(try decode(grayHeader, PNGFile.chunk("PLTE"), grayData, end).pixels, opaqueGray)
        XCTAssertEqual(try decode(rgbHeader, PNGFile.chunk("PLTE", [1, 2, 3, 4]), rgbData, end).pixels, opaqueRGB)
        let tooLong = PNGFile.chunk("PLTE", [UInt8](repeating: 1, count: 771))
        XCTAssertEqual(try decode(rgbHeader, tooLong, rgbData, end).pixels, opaqueRGB)
    }

    func test_paletteAfterTheImageData_inAnRGBImage_isIgnored() throws {
        XCTAssertEqual(try decode(rgbHeader, rgbData, PNGFile.chunk("PLTE", [1, 2, 3]), end).pixels, opaqueRGB)
    }

    func test_paletteDefects_libpngRejects_areRejected() {
        // An empty palette, whatever the color type (gray ignores every PLTE first).
        XCTAssertEqual(error(rgbHeader, PNGFile.chunk("PLTE"), rgbData, end), .invalidPalette(byteCount: 0))
        XCTAssertEqual(error(paletteHeader, PNGFile.chunk("PLTE"), paletteData, end), .invalidPalette(byteCount: 0))
        // A bad length where the palette is needed.
        XCTAssertEqual(
            error(paletteHeader, PNGFile.chunk("PLTE", [1, 2, 3, 4]), paletteData, end), .invalidPalette(byteCount: 4)
        )
        // A second PLTE, even if the first was ignored.
        let palette = PNGFile.chunk("PLTE", [1, 2, 3])
        let expected = PNGError.chunkOrder(chunk: "PLTE", after: "PLTE")
        XCTAssertEqual(error(rgbHeader, palette, palette, rgbData, end), expected)
        XCTAssertEqual(error(grayHeader, palette, palette, grayData, end), expected)
        XCTAssertEqual(error(rgbHeader, PNGFile.chunk("PLTE", [1, 2, 3, 4]), palette, rgbData, end), expected)
    }

    func test_paletteLongerThanTheBitDepthCanIndex_isCutBeforeTransparencyIsJudged() throws {
        // Given: a 1-bit image (2 indices) with 4 palette entries; pixels 0, 1, 0, 0, ...
        let header = PNGFile.chunk("IHDR", PNGFile.header(width: 8, height: 1, bitDepth: 1, colorType: 3))
        let palette = PNGFile.chunk("PLTE", Array(0..<12))
        let data = PNGFile.chunk("IDAT", ZlibStream.stored([0, 0b0100_0000]))
        // When: 2 alphas fit the cut palette, 3 do not
        let fitting = try decode(header, palette, PNGFile.chunk("tRNS", [0x10, 0x20]), data, end)
        let tooLong = try decode(header, palette, PNGFile.chunk("tRNS", [0x10, 0x20, 0x30]), data, end)
        // Then
        XCTAssertEqual(Array(fitting.pixels.prefix(12)), [0, 1, 2, 0x10, 3, 4, 5, 0x20, 0, 1, 2, 0x10])
        XCTAssertEqual(Array(tooLong.pixels.prefix(12)), [0, 1, 2, 255, 3, 4, 5, 255, 0, 1, 2, 255])
    }

    // MARK: Image data

    func test_tooMuchImageData_decodesWhatTheImageNeeds() throws {
        // Given: three bytes more than the image, in a stream with a valid and with a bad Adler-32
        let stream = ZlibStream.stored([0, 1, 128, 9, 9, 9])
        var badChecksum = stream
        badChecksum[badChecksum.count - 1] ^= 1
        // When
        let valid = try decode(grayHeader, PNGFile.chunk("IDAT", stream), end)
        let unchecked = try decode(grayHeader, PNGFile.chunk("IDAT", badChecksum), end)
        // Then: the checksum covers bytes the image does not use; libpng only warns about it
        XCTAssertEqual(valid.pixels, opaqueGray)
        XCTAssertEqual(unchecked.pixels, opaqueGray)
    }

    func test_tooMuchImageData_inAStreamCutShort_isRejected() {
        let stream = ZlibStream.stored([0, 1, 128, 9, 9, 9])
        XCTAssertEqual(error(grayHeader, PNGFile.chunk("IDAT", Array(stream.dropLast(4))), end), .inflate(.truncated))
    }

    /// Documented strictness: libpng checks the Adler-32 of a stream that holds exactly the image
    /// only if the checksum lies in the input it reads with the last row (error) or just after
    /// (warning); a checksum in a later IDAT chunk goes unread. PNGDecoder always checks it.
    func test_adler32OfExactImageData_isChecked_wherever_theChunksSplitTheStream() {
        var stream = ZlibStream.stored([0, 1, 128])
        stream[stream.count - 1] ^= 1
        let whole = PNGFile.chunk("IDAT", stream)
        let body = PNGFile.chunk("IDAT", Array(stream.dropLast(4)))
        let checksumHalves = [
            PNGFile.chunk("IDAT", Array(stream.suffix(4).prefix(2))), PNGFile.chunk("IDAT", Array(stream.suffix(2))),
        ]
        for file in [[whole], [body, PNGFile.chunk("IDAT", Array(stream.suffix(4)))], [body] + checksumHalves] {
            guard case .inflate(.adlerMismatch) = error(grayHeader, Array(file.joined()), end) else {
                return XCTFail("expected an Adler-32 mismatch")
            }
        }
    }

    /// Documented strictness, found by the differential fuzz target: a stream with a surplus that
    /// is cut short before its end. libpng rejects it when it sees the end missing, but reads on
    /// past the last row only while the next input piece yields bytes; with 1-byte IDAT chunks it
    /// stops after one and decodes this file. PNGDecoder always decodes the surplus to its end.
    func test_surplusCutShort_isRejected_evenInOneByteChunks() throws {
        let url = SharedTestData.packageRoot.appendingPathComponent(
            "Fuzz/seeds/png-diff/surplus_cut_short_1byte_idats.png"
        )
        XCTAssertEqual(Files.decodingError(try Data(contentsOf: url)), .inflate(.truncated))
    }

    /// libpng skips an ancillary chunk it does not know even before IHDR, but refuses one it
    /// reads itself (its handlers check for IHDR first) and any critical one there (found by the
    /// differential fuzz target; the verdicts are libpng 1.6.39's on the same files).
    func test_chunksBeforeIHDR_onlyUnknownAncillaryOnesAreSkipped() throws {
        let unknown = PNGFile.chunk("uffe", Array("hello".utf8))
        XCTAssertEqual(try decode(unknown, grayHeader, grayData, end).pixels, opaqueGray)
        XCTAssertEqual(try decode(unknown, withBadCRC(unknown), grayHeader, grayData, end).pixels, opaqueGray)
        for known in [PNGFile.chunk("tEXt", Array("k\0v".utf8)), PNGFile.chunk("gAMA", [0, 0, 0xB1, 0x8F])] {
            XCTAssertEqual(error(known, grayHeader, grayData, end), .missingChunk("IHDR"))
            XCTAssertEqual(error(unknown, known, grayHeader, grayData, end), .missingChunk("IHDR"))
        }
        XCTAssertEqual(error(PNGFile.chunk("ABCD", [1]), grayHeader, grayData, end), .missingChunk("IHDR"))
        XCTAssertEqual(error(unknown, end), .missingChunk("IHDR"))
    }

    /// A thumbnail of a file whose IHDR follows such a chunk is reduced like any other, and the
    /// size is read past the chunk (the thumbnail came back at full size: the header peek
    /// expected IHDR first; found by the PNG fuzz target, its seed
    /// `Fuzz/seeds/png/unknown_chunk_before_ihdr.png`).
    func test_chunkBeforeIHDR_thumbnailIsReduced_andTheSizeIsRead() throws {
        // Given: 40 × 40 8-bit gray after an unknown ancillary chunk
        var filtered: [UInt8] = []
        for y in 0..<40 { filtered += [0] + (0..<40).map { x in UInt8((x * 5 + y * 3) % 256) } }
        let header = PNGFile.chunk("IHDR", PNGFile.header(width: 40, height: 40, bitDepth: 8, colorType: 0))
        let file = PNGFile.file(
            PNGFile.chunk("uffe", Array("hello".utf8)), header, PNGFile.chunk("IDAT", ZlibStream.stored(filtered)), end)
        // When
        let thumbnail = try PNGDecoder().decode(file, scale: 1, maxPixelSize: 16)
        // Then
        XCTAssertEqual(PNGDecoder().pixelSize(of: file)?.width, 40)
        XCTAssertEqual(thumbnail.width, 16)
        XCTAssertEqual(thumbnail.pixels, try PNGDecoder().decode(file, scale: 1).downsampled(maxPixelSize: 16).pixels)
    }

    /// The stream ends on a match reaching too far back, right after the image's last byte,
    /// whose codes take the last byte of the image data. zlib decodes those codes with the last
    /// row and checks the distance only when libpng reads on, which it does not: no image data
    /// is left, so libpng fails the file ("Not enough image data"). Found by the differential
    /// fuzz target (its seed `match_too_far_back_taking_the_last_byte.png`).
    func test_matchTooFarBackTakingTheLastByte_isTruncated_likeLibpng() throws {
        // 3 × 1 16-bit gray: a filter byte and six bytes, then the match.
        let header = PNGFile.chunk("IHDR", PNGFile.header(width: 3, height: 1, bitDepth: 16, colorType: 0))
        let stream: [UInt8] = [0x78, 0x9C, 0x63, 0x16, 0x7D, 0x32, 0x49, 0x44, 0x41, 0x14, 0x78, 0xDA, 0x63]
        XCTAssertEqual(error(header, PNGFile.chunk("IDAT", stream), end), .inflate(.truncated))
        let file = Data(PNGChunkReader.signature + header + PNGFile.chunk("IDAT", stream) + end)
        XCTAssertThrowsError(try PNGDecoder().decode(file, scale: 1, maxPixelSize: 2), "the streaming decode")
        // With a byte to spare, libpng reads on, meets the match and only warns.
        let spare = PNGFile.chunk("IDAT", stream + [0])
        XCTAssertEqual(try decode(header, spare, end).width, 3)
        let spareFile = Data(PNGChunkReader.signature + header + spare + end)
        XCTAssertEqual(try PNGDecoder().decode(spareFile, scale: 1, maxPixelSize: 2).width, 2)
    }

    /// A fixed-code stream holding more than the image ends four bits into a reserved distance
    /// code (30 or 31, five bits). zlib needs the fifth bit before it calls the code invalid, so
    /// it waits for more input and libpng fails the file ("Not enough image data"); with one
    /// more byte zlib sees the bad code past the image, where libpng only warns. Found by the
    /// differential fuzz target (PNGDecoder took the padding's zero bit and accepted the file).
    func test_streamEndingInsideAReservedDistanceCode_isTruncated_likeZlib() throws {
        // 2 × 5 RGBA: 45 bytes, of the 236 the stream's matches make.
        let header = PNGFile.chunk("IHDR", PNGFile.header(width: 2, height: 5, bitDepth: 8, colorType: 6))
        let stream: [UInt8] = [0x78, 0xDA, 0x63, 0x1E, 0x6C, 0x00, 0x9F, 0x00, 0x85, 0x00, 0xFA]
        XCTAssertEqual(error(header, PNGFile.chunk("IDAT", stream), end), .inflate(.truncated))
        let file = Data(PNGChunkReader.signature + header + PNGFile.chunk("IDAT", stream) + end)
        XCTAssertThrowsError(try PNGDecoder().decode(file, scale: 1, maxPixelSize: 1), "the streaming decode")
        XCTAssertEqual(try decode(header, PNGFile.chunk("IDAT", stream + [0]), end).height, 5)
    }

    /// The surplus (one byte) is followed by a dynamic block whose code-length code is empty.
    /// zlib accepts such a code and reads the code lengths with it, so it runs out of input
    /// before it finds the missing end-of-block code, and libpng rejects the file ("Not enough
    /// image data"); PNGDecoder fails in the same order (found by the differential fuzz target).
    func test_surplusWithAnEmptyCodeLengthCode_runsOutOfInput_likeZlib() throws {
        let url = SharedTestData.packageRoot.appendingPathComponent(
            "Fuzz/seeds/png-diff/surplus_empty_code_length_code.png"
        )
        XCTAssertEqual(Files.decodingError(try Data(contentsOf: url)), .inflate(.truncated))
    }

    /// The same documented strictness for invalid deflate data right after the image's last byte.
    func test_invalidDeflateDataAfterTheImagesLastByte_isRejected() {
        // Given: the image's bytes in a non-final stored block, then a block of the reserved type 3
        let image: [UInt8] = [0, 1, 128]
        let adler = image.withUnsafeBufferPointer { Adler32.checksum($0.baseAddress!, count: $0.count) }
        let stream: [UInt8] = [0x78, 0x01, 0x00, 3, 0, 0xFC, 0xFF] + image + [0x07] + PNGFile.bigEndian(adler)
        // Then
        XCTAssertEqual(error(grayHeader, PNGFile.chunk("IDAT", stream), end), .inflate(.badBlockType))
    }

    func test_imageDataAfterTheFirstRunOfChunks_isIgnored() throws {
        let text = PNGFile.chunk("tEXt", Array("a\0b".utf8))
        XCTAssertEqual(try decode(grayHeader, grayData, text, grayData, end).pixels, opaqueGray)
        let badText = withBadCRC(text)
        XCTAssertEqual(try decode(grayHeader, grayData, badText, grayData, end).pixels, opaqueGray)
    }

    func test_imageDataTheImageNeeds_afterTheFirstRun_isMissing() {
        // Given: the stream split by a tEXt chunk, which ends the image data
        let stream = ZlibStream.stored([0, 1, 128])
        let first = PNGFile.chunk("IDAT", Array(stream.prefix(5)))
        let rest = PNGFile.chunk("IDAT", Array(stream.dropFirst(5)))
        // Then
        XCTAssertEqual(
            error(grayHeader, first, PNGFile.chunk("tEXt", Array("a\0b".utf8)), rest, end), .inflate(.truncated))
    }
}

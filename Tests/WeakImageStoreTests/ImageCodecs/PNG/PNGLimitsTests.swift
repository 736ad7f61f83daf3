import Foundation
import ImageStoreTestSupport
import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

/// Size limits: checked from the header, before anything is allocated for the image.
final class PNGLimitsTests: XCTestCase {
    private typealias Files = PNGTestFiles

    func test_defaultLimits_are64MiPixelsAnd32768PixelsASide() {
        let decoder = PNGDecoder()
        XCTAssertEqual(decoder.maximumPixelCount, 67_108_864)
        XCTAssertEqual(decoder.maximumDimension, 32_768)
    }

    func test_tinyFileClaiming100000Squared_throwsImageTooLarge_atTheHeader() {
        // Given: only a header and IEND; if the limit were checked later, IDAT would be missing
        let header = PNGFile.header(width: 100_000, height: 100_000, bitDepth: 8, colorType: 6)
        let bomb = PNGFile.file(PNGFile.chunk("IHDR", header), PNGFile.chunk("IEND"))
        XCTAssertLessThan(bomb.count, 100)
        // When / Then
        XCTAssertEqual(
            Files.decodingError(bomb), .imageTooLarge(width: 100_000, height: 100_000, limit: .dimension(32_768))
        )
        XCTAssertEqual(
            Files.decodingError(bomb, decoder: PNGDecoder(maximumDimension: 1_000_000)),
            .imageTooLarge(width: 100_000, height: 100_000, limit: .pixelCount(67_108_864))
        )
    }

    func test_largestHeaderValues_doNotOverflowTheSizeArithmetic() {
        let largest: UInt32 = 0x7FFF_FFFF
        let header = PNGFile.chunk("IHDR", PNGFile.header(width: largest, height: largest, bitDepth: 16, colorType: 6))
        let decoder = PNGDecoder(maximumPixelCount: .max, maximumDimension: .max)
        XCTAssertEqual(
            Files.decodingError(PNGFile.file(header, PNGFile.chunk("IEND")), decoder: decoder),
            .imageTooLarge(width: 0x7FFF_FFFF, height: 0x7FFF_FFFF, limit: .pixelCount(.max))
        )
    }

    func test_customLimits_areRespected_inclusively() throws {
        let decoder = PNGDecoder(maximumPixelCount: 100, maximumDimension: 20)
        XCTAssertNoThrow(try decoder.decode(grayImage(width: 10, height: 10), scale: 1))
        XCTAssertNoThrow(try decoder.decode(grayImage(width: 20, height: 5), scale: 1))
        XCTAssertEqual(
            Files.decodingError(grayImage(width: 11, height: 10), decoder: decoder),
            .imageTooLarge(width: 11, height: 10, limit: .pixelCount(100))
        )
        XCTAssertEqual(
            Files.decodingError(grayImage(width: 1, height: 21), decoder: decoder),
            .imageTooLarge(width: 1, height: 21, limit: .dimension(20))
        )
    }

    func test_imageAtTheDefaultMaximumDimension_decodes() throws {
        let row = [UInt8](repeating: 0xF0, count: 4_096)
        let file = PNGFile.png(width: 32_768, height: 1, bitDepth: 1, colorType: 0, filteredData: [0] + row)
        let bitmap = try PNGDecoder().decode(file, scale: 1)
        XCTAssertEqual(bitmap.pixels.count, 32_768)
        XCTAssertEqual(Array(bitmap.pixels.prefix(8)), [255, 255, 255, 255, 0, 0, 0, 0])
        XCTAssertNotNil(Files.decodingError(grayImage(width: 32_769, height: 1)))
    }

    func test_imageWithinLimitsButWithTooLittleData_isRejectedBeforeAllocating() {
        // 8000 × 8000 RGBA would need 256 MB; 17 compressed bytes can make at most 17 544.
        let header = PNGFile.chunk("IHDR", PNGFile.header(width: 8_000, height: 8_000, bitDepth: 8, colorType: 6))
        let data = PNGFile.chunk("IDAT", ZlibStream.stored([0, 1, 2, 3, 4, 5]))
        XCTAssertEqual(
            Files.decodingError(PNGFile.file(header, data, PNGFile.chunk("IEND"))),
            .insufficientImageData(expectedBytes: 8_000 * (8_000 * 4 + 1), compressedBytes: 17)
        )
    }

    /// A gray image of the given size, all zero, in stored blocks.
    private func grayImage(width: Int, height: Int) -> Data {
        PNGFile.png(
            width: UInt32(width), height: UInt32(height), colorType: 0,
            filteredData: [UInt8](repeating: 0, count: height * (width + 1))
        )
    }
}

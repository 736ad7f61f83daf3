import XCTest

@testable import ImageCodecs

final class VP8SuiteTests: XCTestCase {
    func test_everyValidFile_decodesToLibwebpsPixels() throws {
        for entry in try VP8Suite.entries() where entry.isValid {
            // Given
            let data = try VP8Suite.vp8Data(entry.file)

            // When
            let image = try data.withUnsafeBytes { try VP8Decoder.decodeRGBA($0) }

            // Then
            XCTAssertEqual(image.width, entry.width, entry.file)
            XCTAssertEqual(image.height, entry.height, entry.file)
            XCTAssertEqual(image.pixels.withUnsafeBytes { SHA256.hash($0) }.description, entry.sha256, entry.file)
        }
    }

    func test_everyFileLibwebpRefuses_throwsTheExpectedError() throws {
        let refused = try VP8Suite.entries().filter { !$0.isValid }
        XCTAssertGreaterThan(refused.count, 20)
        for entry in refused {
            // Given
            let data = try VP8Suite.vp8Data(entry.file)

            // When
            let thrown: VP8Error? = data.withUnsafeBytes { bytes in
                do throws(VP8Error) {
                    _ = try VP8Decoder.decodeRGBA(bytes)
                    return nil
                } catch {
                    return error
                }
            }

            // Then
            XCTAssertEqual(thrown.map(VP8Suite.caseName), entry.expectedError, entry.file)
        }
    }

    func test_rows_arriveOnceEach_topToBottom_andMatchTheFullDecode() throws {
        for file in ["q75.webp", "sharpness7-simple.webp", "f0-strong.webp", "size-17x33.webp", "size-1x1000.webp"] {
            // Given
            let data = try VP8Suite.vp8Data(file)
            let full = try data.withUnsafeBytes { try VP8Decoder.decodeRGBA($0) }

            // When
            var order: [Int] = []
            var pixels: [UInt8] = []
            try data.withUnsafeBytes { bytes in
                try VP8Decoder.decode(bytes) { y, row in
                    order.append(y)
                    pixels.append(contentsOf: row)
                }
            }

            // Then
            XCTAssertEqual(order, Array(0..<full.height), file)
            XCTAssertEqual(pixels, full.pixels, file)
        }
    }

    func test_header_givesTheSize_withoutDecoding() throws {
        // Given
        let data = try VP8Suite.vp8Data("size-16383x1.webp")

        // When
        let size = try data.withUnsafeBytes { try VP8Decoder.header(of: $0) }

        // Then
        XCTAssertEqual(size.width, 16383)
        XCTAssertEqual(size.height, 1)
    }

    func test_imageAboveThePixelLimit_isRefusedBeforeDecoding() throws {
        // Given
        let data = try VP8Suite.vp8Data("q75.webp")

        // When
        let thrown: VP8Error? = data.withUnsafeBytes { bytes in
            do throws(VP8Error) {
                try VP8Decoder.decode(bytes, maximumPixelCount: 100) { _, _ in XCTFail("no row expected") }
                return nil
            } catch {
                return error
            }
        }

        // Then
        XCTAssertEqual(thrown, .imageTooLarge(width: 160, height: 106, limit: 100))
    }
}

import Foundation
import ImageStoreTestSupport
import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

/// The format-sniffing decoder, and the default `ImageStore<Bitmap>` serving JPEGs.
final class BitmapDecoderTests: XCTestCase {
    func test_format_isChosenByLeadingBytes() throws {
        let jpeg = try JPEGTestFiles.file("rose113_q90.jpg")
        let png = PNGFile.png(width: 1, height: 1, colorType: 0, filteredData: [0, 0x80])
        XCTAssertEqual(BitmapDecoder.format(of: jpeg), .jpeg)
        XCTAssertEqual(BitmapDecoder.format(of: png), .png)
        XCTAssertEqual(BitmapDecoder.format(of: Data("GIF89a".utf8)), .gif)
        XCTAssertEqual(BitmapDecoder.format(of: Data("GIF87a".utf8)), .gif)
        XCTAssertNil(BitmapDecoder.format(of: Data("GIF88a".utf8)))
        XCTAssertNil(BitmapDecoder.format(of: Data("BM6".utf8)))
    }

    func test_decode_forwardsJPEGs_andPNGs() throws {
        // Given
        let jpeg = try JPEGTestFiles.file("rose113_q90.jpg")
        let png = PNGFile.png(width: 1, height: 1, colorType: 0, filteredData: [0, 0x80])
        // When
        let photo = try BitmapDecoder().decode(jpeg, scale: 2)
        let dot = try BitmapDecoder().decode(png, scale: 1)
        // Then
        XCTAssertEqual(photo.rgba8(), try JPEGTestFiles.reference("rose113_q90.jpg"))
        XCTAssertEqual(photo.scale, 2)
        XCTAssertEqual(dot.pixels, [0x80])
    }

    func test_decode_throwsTypedErrors_forNeitherFormat_andForBrokenFiles() throws {
        XCTAssertThrowsError(try BitmapDecoder().decode(Data("BM6\u{0}".utf8), scale: 1)) { error in
            XCTAssertEqual(error as? BitmapDecoderError, .unrecognizedFormat(leadingBytes: [0x42, 0x4D, 0x36, 0x00]))
            XCTAssertEqual("\(error)", "not a PNG, JPEG, GIF or WebP file: it starts with 42 4D 36 00")
        }
        XCTAssertThrowsError(try BitmapDecoder().decode(Data("GIF89a".utf8), scale: 1)) { error in
            XCTAssertEqual(error as? BitmapDecoderError, .gif(.truncatedBeforeFirstFrame(offset: 6)))
        }
        XCTAssertThrowsError(try BitmapDecoder().decode(Data([0xFF, 0xD8]), scale: 1)) { error in
            XCTAssertEqual(error as? BitmapDecoderError, .jpeg(.truncated(offset: 2)))
        }
        XCTAssertThrowsError(try BitmapDecoder().decode(Data(), scale: 1)) { error in
            XCTAssertEqual(error as? BitmapDecoderError, .unrecognizedFormat(leadingBytes: []))
        }
    }

    func test_defaultStore_servesAJPEGByItsName_evenWithAPNGExtension() throws {
        // Given: a JPEG as photo.jpg, and the same bytes misnamed banner.png
        let directory = TestDirectory()
        let jpeg = [UInt8](try JPEGTestFiles.file("rose113_q90.jpg"))
        directory.write("photo.jpg", jpeg)
        directory.write("banner.png", jpeg)
        let store = ImageStore(ImageStore<Bitmap>.Configuration(directories: [directory.url]))
        // When
        let photo = try store.loadImage(named: "photo.jpg")
        let banner = try store.loadImage(named: "banner")
        // Then
        XCTAssertEqual(photo.width, 113)
        XCTAssertEqual(photo.format, .rgba8)
        XCTAssertEqual(photo.rgba8(), try JPEGTestFiles.reference("rose113_q90.jpg"))
        XCTAssertEqual(banner.rgba8(), photo.rgba8())
        XCTAssertTrue(store.image(named: "photo.jpg") === photo, "the store shares the decoded JPEG")
    }

    func test_storeWithJPEGExtensions_findsAJPEGWithoutOne() throws {
        let directory = TestDirectory()
        directory.write("photo.jpeg", [UInt8](try JPEGTestFiles.file("rose113_q90.jpg")))
        var configuration = ImageStore<Bitmap>.Configuration(directories: [directory.url])
        configuration.extensions = ["png", "jpg", "jpeg"]
        let store = ImageStore(configuration)
        XCTAssertEqual(try store.loadImage(named: "photo").height, 75)
    }
}

import Foundation
import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

/// JPEG thumbnails: the smallest DCT scale that covers the size, averaged the rest of the way.
final class JPEGThumbnailTests: XCTestCase {
    func test_pixelSize_comesFromTheHeaders_upright() throws {
        let decoder = JPEGDecoder()

        let photo = decoder.pixelSize(of: try JPEGTestFiles.file("photo640_q85.jpg"))
        let rotated = decoder.pixelSize(of: try JPEGTestFiles.file("orient6.jpg"))

        XCTAssertEqual(photo?.width, 640)
        XCTAssertEqual(photo?.height, 480)
        XCTAssertEqual(rotated?.width, 96, "orientation 6 turns the stored 64 × 96 pixels upright")
        XCTAssertEqual(rotated?.height, 64)
        XCTAssertNil(decoder.pixelSize(of: Data([0xFF, 0xD8, 0xFF])))
    }

    func test_thumbnail_hasTheRulesSize_andStaysCloseToTheAveragedFullImage() throws {
        for name in ["photo640_q85.jpg", "photo640_prog.jpg", "orient6.jpg"] {
            let data = try JPEGTestFiles.file(name)
            let decoder = JPEGDecoder()
            for maxPixelSize in [7, 60, 100, 333] {
                let full = try decoder.decode(data, scale: 1)
                let expected = full.downsampled(maxPixelSize: maxPixelSize)

                let thumbnail = try decoder.decode(data, scale: 2, maxPixelSize: maxPixelSize)

                XCTAssertEqual(thumbnail.width, expected.width, "\(name) at \(maxPixelSize)")
                XCTAssertEqual(thumbnail.height, expected.height, "\(name) at \(maxPixelSize)")
                XCTAssertEqual(thumbnail.format, full.format, name)
                XCTAssertEqual(thumbnail.scale, 2, name)
                // DCT-domain scaling and averaging differ from averaging the full image only by
                // rounding and the reduced IDCT's filtering.
                let difference = zip(thumbnail.pixels, expected.pixels).map { abs(Int($0) - Int($1)) }
                let mean = Double(difference.reduce(0, +)) / Double(max(1, difference.count))
                XCTAssertLessThan(mean, 4, "\(name) at \(maxPixelSize): mean difference \(mean)")
            }
        }
    }

    func test_thumbnailNotSmallerThanTheImage_isTheFullDecode() throws {
        let data = try JPEGTestFiles.file("photo640_q85.jpg")
        let decoder = JPEGDecoder()

        let thumbnail = try decoder.decode(data, scale: 1, maxPixelSize: 640)

        XCTAssertEqual(thumbnail.pixels, try decoder.decode(data, scale: 1).pixels)
    }

    func test_hugeHeader_isRefused_evenForATinyThumbnail() throws {
        let data = try JPEGTestFiles.file("err_huge_60000x60000.jpg")

        XCTAssertThrowsError(try JPEGDecoder().decode(data, scale: 1, maxPixelSize: 64)) { error in
            guard case JPEGError.imageTooLarge = error else { return XCTFail("expected imageTooLarge, got \(error)") }
        }
    }

    func test_store_servesJPEGThumbnails_throughTheDefaultDecoder() throws {
        let directory = TestDirectory()
        directory.write("photo.jpg", [UInt8](try JPEGTestFiles.file("photo640_q85.jpg")))
        let store = ImageStore(ImageStore<Bitmap>.Configuration(directories: [directory.url]))

        let thumbnail = try store.loadImage(named: "photo.jpg", maxPixelSize: 160)
        let full = try store.loadImage(named: "photo.jpg", maxPixelSize: 640)

        XCTAssertEqual(thumbnail.width, 160)
        XCTAssertEqual(thumbnail.height, 120)
        XCTAssertEqual(full.width, 640)
        XCTAssertIdentical(full, try store.loadImage(named: "photo.jpg"))
    }
}

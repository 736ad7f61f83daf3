import ImageStoreTestSupport
import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

/// The default `ImageStore<Bitmap>` with the real PNG decoder, end to end.
final class BitmapStoreTests: XCTestCase {
    func test_defaultStore_decodesPNGs_atTheFilesScale() throws {
        let directory = TestDirectory()
        let gray = PNGFile.png(width: 1, height: 1, colorType: 0, filteredData: [0, 0x80])
        directory.write("dot@2x.png", [UInt8](gray))
        let store = ImageStore(ImageStore<Bitmap>.Configuration(directories: [directory.url]))

        let dot = try store.loadImage(named: "dot")

        XCTAssertEqual(dot.width, 1)
        XCTAssertEqual(dot.scale, 2)
        XCTAssertEqual(dot.format, .gray8)
        XCTAssertEqual(dot.pixels, [0x80])
    }

    func test_defaultStore_servesPNGThumbnails_decodedStraightToSize() throws {
        let directory = TestDirectory()
        // 40 × 30 gray, each row a ramp, filter type 0.
        let rows: [UInt8] = (0..<30).flatMap { row -> [UInt8] in [0] + (0..<40).map { UInt8(($0 * 6 + row) % 256) } }
        let file = PNGFile.png(width: 40, height: 30, colorType: 0, filteredData: rows)
        directory.write("ramp.png", [UInt8](file))
        let store = ImageStore(ImageStore<Bitmap>.Configuration(directories: [directory.url]))

        let thumbnail = try store.loadImage(named: "ramp", maxPixelSize: 20)
        let full = try store.loadImage(named: "ramp")
        let notSmaller = try store.loadImage(named: "ramp", maxPixelSize: 40)

        XCTAssertEqual(thumbnail.width, 20)
        XCTAssertEqual(thumbnail.height, 15)
        XCTAssertEqual(thumbnail.format, .gray8)
        XCTAssertEqual(thumbnail.pixels, try PNGDecoder().decode(file, scale: 1, maxPixelSize: 20).pixels)
        XCTAssertIdentical(notSmaller, full, "a thumbnail as large as the image must be the full-size instance")
        XCTAssertEqual(store.statistics.decodes, 2)
    }

    func test_pngBomb_isRefused_beforeAllocatingItsPixels() throws {
        let directory = TestDirectory()
        let bomb = PNGFile.png(width: 100_000, height: 100_000, colorType: 6, filteredData: [0])
        directory.write("bomb.png", [UInt8](bomb))
        let store = ImageStore(ImageStore<Bitmap>.Configuration(directories: [directory.url]))
        BitmapMemory.resetPeak()
        let before = Bitmap.memory

        XCTAssertThrowsError(try store.loadImage(named: "bomb")) { error in
            guard case ImageStoreError.decodingFailed(_, let reason) = error else {
                return XCTFail("expected decodingFailed, got \(error)")
            }
            XCTAssertTrue(reason.contains("100000"), reason)
        }
        XCTAssertEqual(Bitmap.memory.peakBytes, before.peakBytes, "pixels were allocated for the bomb")
    }

    func test_zeroByteAndGarbageFiles_failToDecode_withThePNGReason() {
        let directory = TestDirectory()
        directory.write("empty.png", [])
        directory.write("text.png", Array("not a png at all".utf8))
        let store = ImageStore(ImageStore<Bitmap>.Configuration(directories: [directory.url]))

        for name in ["empty", "text"] {
            XCTAssertThrowsError(try store.loadImage(named: name), name) { error in
                guard case ImageStoreError.decodingFailed = error else {
                    return XCTFail("\(name): expected decodingFailed, got \(error)")
                }
            }
            XCTAssertNil(store.image(named: name))
        }
    }
}

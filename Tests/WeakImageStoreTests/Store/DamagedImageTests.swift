import Foundation
import ImageStoreTestSupport
import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

/// A damaged file the decoder still shows (a JPEG cut short) is served and counted in
/// `damagedDecodes`; an intact one is not; a strict decoder refuses it.
final class DamagedImageTests: XCTestCase {
    private let directory = TestDirectory()

    override func setUp() {
        super.setUp()
        let whole = JPEGEncoder.encode(Self.gradient(width: 96, height: 64))
        directory.write("whole.jpg", [UInt8](whole))
        // Cut three quarters of the way: inside the scan data, well after the headers.
        directory.write("cut.jpg", [UInt8](whole.prefix(whole.count * 3 / 4)))
    }

    func test_cutJPEG_isShown_andCountedDamaged() throws {
        // Given
        var configuration = ImageStore<Bitmap>.Configuration(directories: [directory.url])
        configuration.extensions = ["jpg"]
        let store = ImageStore(configuration)
        // When
        let cut = try store.loadImage(named: "cut")
        let whole = try store.loadImage(named: "whole")
        // Then
        XCTAssertEqual(cut.width, 96)
        XCTAssertEqual(whole.width, 96)
        XCTAssertEqual(store.statistics.decodes, 2)
        XCTAssertEqual(store.statistics.damagedDecodes, 1)
    }

    func test_cutJPEG_thumbnailAndAsyncLoad_areCountedDamaged() async throws {
        // Given
        var configuration = ImageStore<Bitmap>.Configuration(directories: [directory.url])
        configuration.extensions = ["jpg"]
        let store = ImageStore(configuration)
        // When
        let thumbnail = try store.loadImage(named: "cut", maxPixelSize: 24)
        let fullSize = try await store.fetchImage(named: "cut")
        // Then
        XCTAssertEqual(thumbnail.width, 24)
        XCTAssertEqual(fullSize.width, 96)
        XCTAssertEqual(store.statistics.decodes, 2)
        XCTAssertEqual(store.statistics.damagedDecodes, 2)
    }

    func test_strictDecoder_refusesTheCutJPEG_andCountsNoDamage() {
        // Given
        var configuration = ImageStore<Bitmap>.Configuration(
            directories: [directory.url], decoder: BitmapDecoder(jpegDecoder: JPEGDecoder(strict: true)))
        configuration.extensions = ["jpg"]
        let store = ImageStore(configuration)
        // When
        XCTAssertThrowsError(try store.loadImage(named: "cut")) { error in
            // Then
            guard case ImageStoreError.decodingFailed = error else { return XCTFail("\(error)") }
        }
        XCTAssertEqual(store.statistics.decodes, 1)
        XCTAssertEqual(store.statistics.damagedDecodes, 0)
    }

    func test_decoderThatCannotTell_reportsIntact() throws {
        // Given a decoder with only the required methods
        var configuration = ImageStore<Bitmap>.Configuration(directories: [directory.url], decoder: FakeDecoder())
        configuration.extensions = ["jpg"]
        let store = ImageStore(configuration)
        // When
        _ = try store.loadImage(named: "cut")
        // Then
        XCTAssertEqual(store.statistics.decodes, 1)
        XCTAssertEqual(store.statistics.damagedDecodes, 0)
    }

    private static func gradient(width: Int, height: Int) -> Bitmap {
        var pixels: [UInt8] = []
        for y in 0..<height {
            for x in 0..<width { pixels += [UInt8(x * 255 / width), UInt8(y * 255 / height), 128, 255] }
        }
        return Bitmap(width: width, height: height, scale: 1, format: .rgba8, pixels: pixels)
    }
}

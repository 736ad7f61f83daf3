import Foundation
import ImageStoreTestSupport
import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

/// A miss reads the bytes' header once: the read that learns a thumbnail's key (or, for a full
/// size image, the one before decoding) is handed to the live-cost reservation, the decode's
/// admission and the decoder itself.
final class HeaderReadOnceTests: XCTestCase {
    /// Wraps ``BitmapDecoder``, counting header reads and keeping the options it is handed.
    private struct HeaderCountingDecoder: ImageDecoding {
        let headerReads = Lock(0)
        let decodeOptions = Lock<[DecodeOptions]>([])
        let peakOptions = Lock<[DecodeOptions]>([])
        let decoder = BitmapDecoder()

        func header(of data: Data) -> ImageHeader? {
            headerReads.withLock { $0 += 1 }
            return decoder.header(of: data)
        }

        func decode(_ data: Data, options: DecodeOptions) throws -> DecodeResult<Bitmap> {
            decodeOptions.withLock { $0.append(options) }
            return try decoder.decode(data, options: options)
        }

        func decodingPeakBytes(of data: Data, options: DecodeOptions) -> Int? {
            peakOptions.withLock { $0.append(options) }
            return decoder.decodingPeakBytes(of: data, options: options)
        }
    }

    private func photo(in directory: TestDirectory) {
        var pixels = [UInt8](repeating: 255, count: 320 * 240 * 4)
        for index in 0..<(320 * 240) {
            pixels[index * 4] = UInt8(index % 251)
            pixels[index * 4 + 1] = UInt8(index % 241)
            pixels[index * 4 + 2] = UInt8(index % 239)
        }
        let bitmap = Bitmap(width: 320, height: 240, scale: 1, format: .rgba8, pixels: pixels)
        directory.write("photo.jpg", [UInt8](JPEGEncoder.encode(bitmap)))
    }

    func test_aSynchronousThumbnailMiss_ofASizeNotKnownYet_readsTheHeaderOnce() throws {
        // Given: a JPEG photo whose size the store has not seen, and a live-cost limit, so the
        // decode reserves its bytes from the header too
        let directory = TestDirectory()
        photo(in: directory)
        let decoder = HeaderCountingDecoder()
        var configuration = ImageStore<Bitmap>.Configuration(directories: [directory.url], decoder: decoder)
        configuration.policy = .weakWithBudgetedLRU(
            liveCostLimit: 64 << 20, costLimit: 1 << 20, countLimit: 10, admissionCostLimit: 1 << 20)
        configuration.extensions = ["jpg"]
        let store = ImageStore(configuration)
        // When
        let thumbnail = try store.loadImage(named: "photo", maxPixelSize: 64)
        // Then: one read, and its header reached the admission and the decoder
        XCTAssertEqual(thumbnail.width, 64)
        XCTAssertEqual(decoder.headerReads.withLock { $0 }, 1)
        let decodeOptions = try XCTUnwrap(decoder.decodeOptions.withLock { $0 }.first)
        XCTAssertEqual(decodeOptions.header, ImageHeader(width: 320, height: 240, format: .jpeg))
        XCTAssertEqual(decodeOptions.maxPixelSize, 64)
        XCTAssertEqual(decoder.peakOptions.withLock { $0 }.first?.header, decodeOptions.header)
    }

    func test_aFullSizeMiss_readsTheHeaderOnce() throws {
        let directory = TestDirectory()
        photo(in: directory)
        let decoder = HeaderCountingDecoder()
        var configuration = ImageStore<Bitmap>.Configuration(directories: [directory.url], decoder: decoder)
        configuration.extensions = ["jpg"]
        let store = ImageStore(configuration)

        _ = try store.loadImage(named: "photo")

        XCTAssertEqual(decoder.headerReads.withLock { $0 }, 1)
        XCTAssertNotNil(decoder.decodeOptions.withLock { $0 }.first?.header)
    }

    func test_theJPEGDecoder_givenTheHeader_plansTheThumbnailFromIt() throws {
        // Given: a header that says the photo is smaller than it is
        let directory = TestDirectory()
        photo(in: directory)
        let data = try Data(contentsOf: directory.url.appendingPathComponent("photo.jpg"))
        var header = try XCTUnwrap(JPEGDecoder().header(of: data))
        header.width = 64
        header.height = 48
        // When: the thumbnail's size equals the header's longest side
        let result = try JPEGDecoder().decode(data, options: DecodeOptions(maxPixelSize: 64, header: header))
        // Then: it trusted the header (no thumbnail needed) rather than reading the file's again
        XCTAssertEqual(result.image.width, 320)
    }
}

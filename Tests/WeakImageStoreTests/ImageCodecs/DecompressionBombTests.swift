import Foundation
import ImageStoreTestSupport
import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

/// The decompression bombs of issue #34 — small files within the default pixel limit whose
/// decodes would hold hundreds of MiB — are refused before anything large is allocated, with
/// the bytes the decode needs and the limit; an interlaced file's thumbnail streams its passes.
final class DecompressionBombTests: XCTestCase {
    private static let mebibyte = 1 << 20

    func test_interlaced16BitPNG_isRefusedAtFullSize_withTheBytesItNeeds() throws {
        // Given: ~520 KB declaring 8192² pixels of 16-bit RGBA in Adam7 passes
        let bomb = DecompressionBombs.interlacedPNG()
        XCTAssertLessThan(bomb.count, 600_000)
        let decoder = PNGDecoder()
        let peak = try XCTUnwrap(decoder.decodingPeakBytes(of: bomb, maxPixelSize: nil))
        // When
        let error = Self.pngError { () throws(PNGError) in try decoder.decode(bomb, scale: 1) }
        // Then: the 512 MiB of filtered passes beside the 256 MiB bitmap
        XCTAssertEqual(error, .decodeTooLarge(bytesNeeded: peak, limit: 384 * Self.mebibyte))
        XCTAssertGreaterThan(peak, 768 * Self.mebibyte)
    }

    func test_interlaced16BitPNG_thumbnail_needsOnlyTheOutputAndAFewRows() throws {
        // Given
        let bomb = DecompressionBombs.interlacedPNG()
        let decoder = PNGDecoder()
        // When
        let peak = try XCTUnwrap(decoder.decodingPeakBytes(of: bomb, maxPixelSize: 256))
        // Then: a 256² thumbnail, its 64-bit sums and a few rows of 64 KiB
        XCTAssertLessThan(peak, 4 * Self.mebibyte)
    }

    func test_palettePNG_isRefusedBelowItsPeak_beforeAllocatingTheBitmap() throws {
        // Given: ~8 KB declaring 8192² palette pixels, a 256 MiB RGBA bitmap
        let bomb = DecompressionBombs.palettePNG()
        XCTAssertLessThan(bomb.count, 16_000)
        let decoder = PNGDecoder(maximumDecodingBytes: 128 * Self.mebibyte)
        let peak = try XCTUnwrap(decoder.decodingPeakBytes(of: bomb, maxPixelSize: nil))
        // When
        var error: PNGError?
        let rise = try PeakResidentSize.rise {
            error = Self.pngError { () throws(PNGError) in try decoder.decode(bomb, scale: 1) }
        }
        // Then: refused, and within the default limit, which leaves it to the store's admission
        XCTAssertEqual(error, .decodeTooLarge(bytesNeeded: peak, limit: 128 * Self.mebibyte))
        XCTAssertGreaterThanOrEqual(peak, 256 * Self.mebibyte)
        XCTAssertLessThanOrEqual(peak, PNGDecoder().maximumDecodingBytes)
        if let rise { XCTAssertLessThan(rise, 16 * Self.mebibyte, "a refused decode allocated \(rise) bytes") }
    }

    func test_palettePNG_thumbnail_streamsWithinATinyLimit() throws {
        // Given: a limit far below the full-size bitmap
        let bomb = DecompressionBombs.palettePNG(side: 2048)
        let decoder = PNGDecoder(maximumDecodingBytes: 2 * Self.mebibyte)
        // When
        let thumbnail = try decoder.decode(bomb, scale: 1, maxPixelSize: 64)
        // Then
        XCTAssertEqual(thumbnail.width, 64)
        XCTAssertEqual(
            Self.pngError { () throws(PNGError) in try decoder.decode(bomb, scale: 1) }.map(Self.isTooLarge), true)
    }

    func test_progressive444JPEG_isRefusedAtFullSize_andAsAThumbnail() throws {
        // Given: ~400 KB declaring 8192² pixels in three full-resolution components
        let bomb = DecompressionBombs.progressiveJPEG()
        XCTAssertLessThan(bomb.count, 420_000)
        let decoder = JPEGDecoder()
        let peak = try XCTUnwrap(decoder.decodingPeakBytes(of: bomb, maxPixelSize: nil))
        let thumbnailPeak = try XCTUnwrap(decoder.decodingPeakBytes(of: bomb, maxPixelSize: 256))
        // When
        var error: JPEGError?
        let rise = try PeakResidentSize.rise {
            error = Self.jpegError { () throws(JPEGError) in try decoder.decode(bomb, scale: 1) }
        }
        let thumbnailError = Self.jpegError { () throws(JPEGError) in
            try decoder.decode(bomb, scale: 1, maxPixelSize: 256)
        }
        // Then: 384 MiB of coefficients beside the 256 MiB bitmap; a thumbnail keeps every
        // coefficient too (a progressive file refines them until its last scan)
        XCTAssertEqual(error, .decodeTooLarge(bytesNeeded: peak, limit: 384 * Self.mebibyte))
        XCTAssertGreaterThanOrEqual(peak, 640 * Self.mebibyte)
        XCTAssertEqual(thumbnailError, .decodeTooLarge(bytesNeeded: thumbnailPeak, limit: 384 * Self.mebibyte))
        if let rise { XCTAssertLessThan(rise, 16 * Self.mebibyte, "a refused decode allocated \(rise) bytes") }
    }

    func test_bitmapDecoder_reportsThePeakOfEachFormat() throws {
        let decoder = BitmapDecoder()
        let png = DecompressionBombs.palettePNG(side: 64)
        let jpeg = DecompressionBombs.progressiveJPEG(side: 64)
        XCTAssertEqual(
            decoder.decodingPeakBytes(of: png, maxPixelSize: nil),
            decoder.pngDecoder.decodingPeakBytes(of: png, maxPixelSize: nil))
        XCTAssertEqual(
            decoder.decodingPeakBytes(of: jpeg, maxPixelSize: 16),
            decoder.jpegDecoder.decodingPeakBytes(of: jpeg, maxPixelSize: 16))
        XCTAssertNil(decoder.decodingPeakBytes(of: Data("GIF89a".utf8), maxPixelSize: nil))
    }

    func test_twelveMegapixelPhotos_decodeWithinTheDefaultLimit() throws {
        // Given: the JPEG speed benchmark's size, sequential and progressive (peaks only: the
        // decodes take seconds in a debug build)
        let photo = DecompressionBombs.progressiveJPEG(side: 4032)
        // When
        let peak = try XCTUnwrap(JPEGDecoder().decodingPeakBytes(of: photo, maxPixelSize: nil))
        // Then: even 4:4:4 progressive, square 16 megapixels, fits
        XCTAssertLessThan(peak, JPEGDecoder().maximumDecodingBytes)
    }

    private static func isTooLarge(_ error: PNGError) -> Bool {
        if case .decodeTooLarge = error { return true }
        return false
    }

    private static func pngError(_ body: () throws(PNGError) -> Bitmap) -> PNGError? {
        do {
            _ = try body()
            return nil
        } catch {
            return error
        }
    }

    private static func jpegError(_ body: () throws(JPEGError) -> Bitmap) -> JPEGError? {
        do {
            _ = try body()
            return nil
        } catch {
            return error
        }
    }
}

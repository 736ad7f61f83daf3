import Foundation
import ImageStoreTestSupport
import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

/// Thumbnails of Adam7-interlaced files are averaged pass by pass as the data is inflated: the
/// same pixels as averaging the full-size image, without holding it or its filtered data.
final class PNGInterlacedThumbnailTests: XCTestCase {
    func test_suiteInterlacedFiles_thumbnailsEqualTheFullDecodeAveraged() throws {
        // Given: every interlaced file of PngSuite (every color type and bit depth)
        let names = try PNGTestFiles.manifest().map(\.name).filter { $0.hasPrefix("basi") }
        XCTAssertFalse(names.isEmpty)
        let decoder = PNGDecoder()
        for name in names {
            let data = try PNGTestFiles.suiteFile(name)
            let full = try decoder.decode(data, scale: 1)
            for maxPixelSize in [1, 3, 7, 16, 31] {
                // When
                let streamed = try decoder.decode(data, scale: 1, maxPixelSize: maxPixelSize)
                // Then
                let expected = full.downsampled(maxPixelSize: maxPixelSize)
                XCTAssertEqual(
                    [streamed.width, streamed.height], [expected.width, expected.height], "\(name) at \(maxPixelSize)")
                XCTAssertEqual(streamed.format, expected.format, "\(name) at \(maxPixelSize)")
                XCTAssertEqual(streamed.pixels, expected.pixels, "\(name) at \(maxPixelSize)")
            }
        }
    }

    func test_randomInterlacedFiles_thumbnailsEqualTheFullDecodeAveraged() throws {
        // Given: random filtered data (any bytes are valid after a filter type 0...4) of odd
        // sizes, so passes are uneven and output pixels straddle source pixels
        var random = SeededGenerator(seed: 34)
        let palette = PNGFile.chunk("PLTE", (0..<48).map { _ in UInt8.random(in: 0...255, using: &random) })
        let transparency = PNGFile.chunk("tRNS", (0..<16).map { _ in UInt8.random(in: 0...255, using: &random) })
        let kinds: [(bitDepth: UInt8, colorType: UInt8, chunks: [[UInt8]])] = [
            (16, 6, []), (8, 2, []), (4, 3, [palette, transparency]), (2, 0, [PNGFile.chunk("tRNS", [0, 1])]),
            (8, 4, []), (16, 0, []),
        ]
        let decoder = PNGDecoder()
        for kind in kinds {
            let (width, height) = (Int.random(in: 40...333, using: &random), Int.random(in: 40...257, using: &random))
            let data = Self.interlacedFile(
                width: width, height: height, bitDepth: kind.bitDepth, colorType: kind.colorType,
                chunks: kind.chunks, random: &random)
            let full = try decoder.decode(data, scale: 1)
            for maxPixelSize in [1, 17, 39, min(width, height) - 1] {
                // When
                let streamed = try decoder.decode(data, scale: 1, maxPixelSize: maxPixelSize)
                // Then
                let expected = full.downsampled(maxPixelSize: maxPixelSize)
                let label = "\(width)×\(height) depth \(kind.bitDepth) type \(kind.colorType) at \(maxPixelSize)"
                XCTAssertEqual([streamed.width, streamed.height], [expected.width, expected.height], label)
                XCTAssertEqual(streamed.pixels, expected.pixels, label)
            }
        }
    }

    func test_interlacedThumbnail_neverHoldsTheFullImageOrItsPasses() throws {
        #if os(Linux)
        // Given: 1024² of 16-bit RGBA in Adam7 passes: 8 MiB of filtered data, a 4 MiB bitmap
        let data = DecompressionBombs.interlacedPNG(side: 1024)
        let decoder = PNGDecoder()
        // Page in the code.
        _ = try decoder.decode(DecompressionBombs.interlacedPNG(side: 64), scale: 1, maxPixelSize: 7)
        // When
        let streamingRise = try XCTUnwrap(
            PeakResidentSize.rise { _ = try decoder.decode(data, scale: 1, maxPixelSize: 64) })
        let fullRise = try XCTUnwrap(PeakResidentSize.rise { _ = try decoder.decode(data, scale: 1) })
        // Then: the thumbnail, its sums and a few rows of 8 KiB, where a full decode holds 12 MiB
        XCTAssertLessThan(streamingRise, 2 << 20, "streaming peak rise \(streamingRise) bytes")
        XCTAssertGreaterThan(fullRise, 8 << 20, "the measurement must see a full decode's buffers")
        #else
        throw XCTSkip("peak resident size is read from /proc on Linux only")
        #endif
    }

    func test_corruptInterlacedData_throwsTheFullDecodesError() throws {
        // Given: a row with filter type 9, and a stream cut short
        var random = SeededGenerator(seed: 7)
        let filtered = Self.filteredPasses(width: 50, height: 40, bytesPerPixel: 4, random: &random)
        var badFilter = filtered
        badFilter[0] = 9
        let badFilterFile = PNGFile.png(width: 50, height: 40, colorType: 6, interlace: 1, filteredData: badFilter)
        let short = PNGFile.png(width: 50, height: 40, colorType: 6, interlace: 1, filteredData: filtered.dropLast(10))
        for file in [badFilterFile, short] {
            // When
            let fullError = Self.error { try PNGDecoder().decode(file, scale: 1) }
            let thumbnailError = Self.error { try PNGDecoder().decode(file, scale: 1, maxPixelSize: 10) }
            // Then
            XCTAssertNotNil(fullError)
            XCTAssertEqual(thumbnailError, fullError)
        }
    }

    private static func error(_ body: () throws -> Bitmap) -> PNGError? {
        do {
            _ = try body()
            return nil
        } catch {
            return error as? PNGError
        }
    }

    /// An Adam7 file of random filtered data with random filter types, in one stored IDAT.
    private static func interlacedFile(
        width: Int, height: Int, bitDepth: UInt8, colorType: UInt8, chunks: [[UInt8]],
        random: inout SeededGenerator
    ) -> Data {
        let channels: [UInt8: Int] = [0: 1, 2: 3, 3: 1, 4: 2, 6: 4]
        let bitsPerPixel = Int(bitDepth) * (channels[colorType] ?? 1)
        let filtered = filteredPasses(
            width: width, height: height, bytesPerPixel: 0, bitsPerPixel: bitsPerPixel, random: &random)
        return PNGFile.png(
            width: UInt32(width), height: UInt32(height), bitDepth: bitDepth, colorType: colorType, interlace: 1,
            chunksBeforeImageData: chunks, filteredData: filtered)
    }

    /// The seven passes' rows: a filter type 0...4, then random bytes.
    private static func filteredPasses(
        width: Int, height: Int, bytesPerPixel: Int, bitsPerPixel: Int? = nil, random: inout SeededGenerator
    ) -> [UInt8] {
        let bits = bitsPerPixel ?? 8 * bytesPerPixel
        let passes = [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
        var filtered: [UInt8] = []
        for pass in passes {
            let passWidth = (width - pass.0 + pass.2 - 1) / pass.2
            let passHeight = (height - pass.1 + pass.3 - 1) / pass.3
            guard passWidth > 0, passHeight > 0 else { continue }
            for _ in 0..<passHeight {
                filtered.append(UInt8.random(in: 0...4, using: &random))
                for _ in 0..<((passWidth * bits + 7) / 8) { filtered.append(UInt8.random(in: 0...255, using: &random)) }
            }
        }
        return filtered
    }
}

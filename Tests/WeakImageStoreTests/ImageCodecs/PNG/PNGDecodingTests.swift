import Foundation
import ImageStoreTestSupport
import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

/// Decoding behaviour beyond PngSuite: every color type, bit depth, filter and interlacing on
/// generated images checked against a reference conversion, and the rules for tRNS, PLTE and
/// chunk layout.
final class PNGDecodingTests: XCTestCase {
    /// An image with known samples, and everything needed to encode it.
    private struct TestImage {
        let width: Int
        let height: Int
        let colorType: UInt8
        let bitDepth: Int
        /// The samples of each pixel, row by row.
        let pixels: [[[Int]]]
        var palette: [UInt8] = []
        var transparency: [UInt8]?

        var channelCount: Int { [0: 1, 2: 3, 3: 1, 4: 2, 6: 4][Int(colorType)] ?? 1 }
        var bytesPerPixel: Int { max(1, channelCount * bitDepth / 8) }

        /// The PNG file, rows filtered with the given filter types (cycled).
        func encoded(interlaced: Bool, filterTypes: [UInt8]) -> Data {
            let images = interlaced ? PNGAdam7.passImages(pixels) : [pixels]
            var filtered: [UInt8] = []
            for image in images {
                let rows = image.map { row in PNGSamplePacking.pack(row.flatMap { $0 }, bitDepth: bitDepth) }
                filtered += PNGRowFilter.filter(rows, filterTypes: filterTypes, bytesPerPixel: bytesPerPixel)
            }
            var chunks: [[UInt8]] = []
            if !palette.isEmpty { chunks.append(PNGFile.chunk("PLTE", palette)) }
            if let transparency { chunks.append(PNGFile.chunk("tRNS", transparency)) }
            return PNGFile.png(
                width: UInt32(width), height: UInt32(height), bitDepth: UInt8(bitDepth), colorType: colorType,
                interlace: interlaced ? 1 : 0, chunksBeforeImageData: chunks, filteredData: filtered
            )
        }

        /// What the decoder must produce, computed directly from the samples.
        func expected() -> (format: PixelFormat, pixels: [UInt8]) {
            let maximum = (1 << bitDepth) - 1
            func eight(_ sample: Int) -> UInt8 {
                bitDepth == 16 ? UInt8(sample >> 8) : UInt8(sample * 255 / maximum)
            }
            let key =
                colorType == 3
                ? nil
                : transparency.map { bytes in
                    stride(from: 0, to: bytes.count, by: 2).map { Int(bytes[$0]) << 8 | Int(bytes[$0 + 1]) }
                }
            let all = pixels.flatMap { $0 }
            switch colorType {
            case 0 where key == nil:
                return (.gray8, all.map { eight($0[0]) })
            case 0:
                return (.grayAlpha8, all.flatMap { [eight($0[0]), $0[0] == key?[0] ? 0 : 255] })
            case 4:
                return (.grayAlpha8, all.flatMap { [eight($0[0]), eight($0[1])] })
            case 2:
                return (
                    .rgba8,
                    all.flatMap { pixel in
                        [eight(pixel[0]), eight(pixel[1]), eight(pixel[2]), pixel == key ? 0 : 255]
                    }
                )
            case 3:
                return (
                    .rgba8,
                    all.flatMap { pixel -> [UInt8] in
                        let index = pixel[0]
                        guard index < palette.count / 3 else { return [0, 0, 0, 255] }
                        let alpha = transparency.flatMap { index < $0.count ? $0[index] : nil } ?? 255
                        return Array(palette[(3 * index)..<(3 * index + 3)]) + [alpha]
                    }
                )
            default:
                return (.rgba8, all.flatMap { $0.map(eight) })
            }
        }
    }

    // MARK: Generated images

    /// Every legal (color type, bit depths) pair.
    private static let legalFormats: [(colorType: UInt8, bitDepths: [Int])] = [
        (0, [1, 2, 4, 8, 16]), (2, [8, 16]), (3, [1, 2, 4, 8]), (4, [8, 16]), (6, [8, 16]),
    ]

    func test_everyColorTypeBitDepthFilterAndInterlacing_matchesTheReferenceConversion() throws {
        var random = SeededGenerator(seed: 42)
        var checked = 0
        for (colorType, bitDepths) in Self.legalFormats {
            for bitDepth in bitDepths {
                for withTransparency in [false, true] where !withTransparency || [0, 2, 3].contains(colorType) {
                    for interlaced in [false, true] {
                        for _ in 0..<3 {
                            // Given: a random image of odd size, rows filtered with random types
                            let image = makeImage(
                                colorType: colorType, bitDepth: bitDepth, withTransparency: withTransparency,
                                using: &random
                            )
                            let filterTypes = (0..<5).map { _ in UInt8(random.next() % 5) }
                            let file = image.encoded(interlaced: interlaced, filterTypes: filterTypes)
                            // When: decoded whole and streamed (as large images are)
                            let bitmap = try PNGTestFiles.decodedBothWays(file).get()
                            // Then
                            let expected = image.expected()
                            let label =
                                "color type \(colorType), \(bitDepth)-bit, tRNS \(withTransparency), "
                                + "interlaced \(interlaced), \(image.width) × \(image.height), filters \(filterTypes)"
                            XCTAssertEqual(bitmap.format, expected.format, label)
                            XCTAssertEqual(bitmap.width, image.width, label)
                            XCTAssertEqual(bitmap.height, image.height, label)
                            XCTAssertEqual(bitmap.pixels, expected.pixels, label)
                            checked += 1
                        }
                    }
                }
            }
        }
        XCTAssertEqual(checked, 156)
    }

    func test_everyFilterType_atEveryPixelWidth_reconstructsTheRows() throws {
        var random = SeededGenerator(seed: 7)
        let formats: [(UInt8, Int)] = [(0, 8), (4, 8), (2, 8), (6, 8), (4, 16), (2, 16), (6, 16), (0, 1)]
        for (colorType, bitDepth) in formats {
            for filterType in UInt8(0)...4 {
                let image = makeImage(colorType: colorType, bitDepth: bitDepth, withTransparency: false, using: &random)
                let file = image.encoded(interlaced: false, filterTypes: [filterType])
                let bitmap = try PNGDecoder().decode(file, scale: 1)
                let label = "color type \(colorType), \(bitDepth)-bit, filter \(filterType)"
                XCTAssertEqual(bitmap.pixels, image.expected().pixels, label)
            }
        }
    }

    func test_adam7_everySizeUpTo17_placesEveryPixel() throws {
        var random = SeededGenerator(seed: 99)
        for height in 1...17 {
            for width in 1...17 {
                let pixels = (0..<height).map { _ in (0..<width).map { _ in [Int(random.next() % 256)] } }
                let image = TestImage(width: width, height: height, colorType: 0, bitDepth: 8, pixels: pixels)
                let file = image.encoded(interlaced: true, filterTypes: [0, 1, 2, 3, 4])
                let bitmap = try PNGDecoder().decode(file, scale: 1)
                XCTAssertEqual(bitmap.pixels, image.expected().pixels, "\(width) × \(height)")
            }
        }
    }

    // MARK: Transparency and palettes

    func test_grayKeyColor_isComparedAtSixteenBits() throws {
        // Given: 0x1234 is the key; 0x1235 has the same high byte but is not transparent
        let image = TestImage(
            width: 2, height: 1, colorType: 0, bitDepth: 16, pixels: [[[0x1234], [0x1235]]], transparency: [0x12, 0x34]
        )
        // When
        let bitmap = try PNGDecoder().decode(image.encoded(interlaced: false, filterTypes: [0]), scale: 1)
        // Then
        XCTAssertEqual(bitmap.format, .grayAlpha8)
        XCTAssertEqual(bitmap.pixels, [0x12, 0, 0x12, 255])
    }

    func test_rgbKeyColor_isComparedAtSixteenBits() throws {
        let image = TestImage(
            width: 2, height: 1, colorType: 2, bitDepth: 16,
            pixels: [[[0x0102, 0x0304, 0x0506], [0x0102, 0x0304, 0x0507]]],
            transparency: [1, 2, 3, 4, 5, 6]
        )
        let bitmap = try PNGDecoder().decode(image.encoded(interlaced: false, filterTypes: [0]), scale: 1)
        XCTAssertEqual(bitmap.pixels, [1, 3, 5, 0, 1, 3, 5, 255])
    }

    func test_lowBitGray_isScaledByBitReplication_andKeyedAtItsOwnDepth() throws {
        let image = TestImage(
            width: 4, height: 1, colorType: 0, bitDepth: 2, pixels: [[[0], [1], [2], [3]]], transparency: [0, 2]
        )
        let bitmap = try PNGDecoder().decode(image.encoded(interlaced: false, filterTypes: [0]), scale: 1)
        XCTAssertEqual(bitmap.pixels, [0, 255, 85, 255, 170, 0, 255, 255])
    }

    func test_paletteIndexBeyondThePalette_isOpaqueBlack_andAlphasApplyToTheFirstEntries() throws {
        let image = TestImage(
            width: 3, height: 1, colorType: 3, bitDepth: 8, pixels: [[[0], [1], [5]]],
            palette: [10, 20, 30, 40, 50, 60], transparency: [128]
        )
        let bitmap = try PNGDecoder().decode(image.encoded(interlaced: false, filterTypes: [0]), scale: 1)
        XCTAssertEqual(bitmap.pixels, [10, 20, 30, 128, 40, 50, 60, 255, 0, 0, 0, 255])
    }

    func test_paletteInAGrayImage_andTransparencyInAnRGBAImage_areIgnored() throws {
        let gray = PNGFile.png(
            width: 1, height: 1, colorType: 0, chunksBeforeImageData: [PNGFile.chunk("PLTE", [1, 2, 3])],
            filteredData: [0, 77]
        )
        XCTAssertEqual(try PNGDecoder().decode(gray, scale: 1).pixels, [77])
        let rgba = PNGFile.png(
            width: 1, height: 1, colorType: 6, chunksBeforeImageData: [PNGFile.chunk("tRNS", [0, 1, 0, 2, 0, 3])],
            filteredData: [0, 1, 2, 3, 4]
        )
        XCTAssertEqual(try PNGDecoder().decode(rgba, scale: 1).pixels, [1, 2, 3, 4])
    }

    // MARK: Large images

    /// Images of more filtered bytes than a decode inflates whole, in every output path: RGB
    /// widened to RGBA, RGBA and gray copied, 16-bit and palettes converted through row buffers.
    func test_largeImages_areStreamed_andKeepEveryPixel() throws {
        var random = SeededGenerator(seed: 7)
        let limit = PNGRowStream.defaultWholeInflationLimit
        for (colorType, bitDepth, width, height) in [
            (UInt8(2), 8, 401, 300), (6, 8, 257, 300), (0, 8, 640, 500), (2, 16, 173, 301), (3, 8, 700, 400),
        ] {
            // Given: smooth rows with noise (so that deflate finds matches), every filter type
            let channels = [0: 1, 2: 3, 3: 1, 6: 4][Int(colorType)] ?? 1
            let maximum = (1 << bitDepth) - 1
            let pixels = (0..<height).map { y in
                (0..<width).map { x in
                    (0..<channels).map { channel in
                        min(maximum, (x * 7 + y * 3 + channel * 50) % (maximum + 1) + Int(random.next() % 3))
                    }
                }
            }
            var image = TestImage(
                width: width, height: height, colorType: colorType, bitDepth: bitDepth, pixels: pixels)
            if colorType == 3 {
                image.palette = (0..<(256 * 3)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            }
            let file = image.encoded(interlaced: false, filterTypes: [0, 1, 2, 3, 4, 4, 1])
            let label = "color type \(colorType), \(bitDepth)-bit, \(width) × \(height)"
            XCTAssertGreaterThan(height * (1 + (width * channels * bitDepth + 7) / 8), limit, label)
            // When
            let bitmap = try PNGDecoder().decode(file, scale: 1)
            // Then
            let expected = image.expected()
            XCTAssertEqual(bitmap.format, expected.format, label)
            XCTAssertEqual(bitmap.pixels, expected.pixels, label)
        }
    }

    func test_largeImage_withAnUndefinedFilterType_namesItsRow_afterCheckingTheStream() throws {
        // Given: 300 rows of 1 000 gray bytes; row 250 has filter type 9
        var filtered: [UInt8] = []
        for y in 0..<300 {
            filtered += [y == 250 ? 9 : 1] + [UInt8](repeating: UInt8(y % 256), count: 1_000)
        }
        let file = PNGFile.png(width: 1_000, height: 300, colorType: 0, filteredData: filtered)
        // When / Then
        XCTAssertEqual(PNGTestFiles.decodingError(file), .badFilterType(9, row: 250))
        // And a stream also cut short reports the cut, as libpng reads the stream first
        let cut = PNGFile.file(
            PNGFile.chunk("IHDR", PNGFile.header(width: 1_000, height: 300, bitDepth: 8, colorType: 0)),
            PNGFile.chunk("IDAT", Array(ZlibStream.stored(filtered).dropLast(10_000))),
            PNGFile.chunk("IEND"))
        guard case .inflate = PNGTestFiles.decodingError(cut) else {
            return XCTFail("a cut stream should fail inflating")
        }
    }

    // MARK: Chunk layout

    func test_imageDataSplitOverManyAndEmptyChunks_formsOneStream() throws {
        // Given
        let stream = ZlibStream.stored([0, 10, 20, 0, 30, 40])
        let pieces = [[], Array(stream[0..<1]), [], Array(stream[1..<9]), Array(stream[9...]), []]
        let header = PNGFile.header(width: 2, height: 2, bitDepth: 8, colorType: 0)
        var file = PNGChunkReader.signature + PNGFile.chunk("IHDR", header)
        for piece in pieces { file += PNGFile.chunk("IDAT", piece) }
        file += PNGFile.chunk("IEND")
        // When
        let bitmap = try PNGDecoder().decode(Data(file), scale: 1)
        // Then
        XCTAssertEqual(bitmap.pixels, [10, 20, 30, 40])
    }

    func test_bytesAfterIEND_areIgnored() throws {
        var file = PNGFile.png(width: 1, height: 1, colorType: 0, filteredData: [0, 9])
        file.append(contentsOf: [0xDE, 0xAD, 0xBE, 0xEF, 1, 2, 3])
        XCTAssertEqual(try PNGDecoder().decode(file, scale: 1).pixels, [9])
    }

    func test_decoder_isUsableAsAnImageDecoding() throws {
        let decoder: any ImageDecoding<Bitmap> = PNGDecoder()
        let bitmap = try decoder.decode(PNGFile.png(width: 1, height: 1, colorType: 0, filteredData: [0, 9]), scale: 2)
        XCTAssertEqual(bitmap.scale, 2)
        XCTAssertEqual(bitmap.pixels, [9])
    }

    // MARK: Helpers

    /// A random image of 1...17 × 1...17 pixels, with a random palette or key color.
    private func makeImage(
        colorType: UInt8, bitDepth: Int, withTransparency: Bool, using random: inout SeededGenerator
    ) -> TestImage {
        let width = 1 + Int(random.next() % 17)
        let height = 1 + Int(random.next() % 17)
        let channels = [0: 1, 2: 3, 3: 1, 4: 2, 6: 4][Int(colorType)] ?? 1
        let maximum = (1 << bitDepth) - 1
        let paletteCount = colorType == 3 ? 1 + Int(random.next() % UInt64(min(256, maximum + 1))) : 0
        // Palette indices may exceed the palette (decoded as opaque black); samples draw from a
        // few values so that key colors actually occur.
        let choices = (0..<4).map { _ in (0..<channels).map { _ in Int(random.next() % UInt64(maximum + 1)) } }
        let pixels = (0..<height).map { _ in
            (0..<width).map { _ in
                guard random.next() % 3 != 0 else { return choices[Int(random.next() % 4)] }
                return (0..<channels).map { _ in Int(random.next() % UInt64(maximum + 1)) }
            }
        }
        var image = TestImage(width: width, height: height, colorType: colorType, bitDepth: bitDepth, pixels: pixels)
        image.palette = (0..<(paletteCount * 3)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        if withTransparency {
            switch colorType {
            case 3:
                let alphaCount = Int(random.next() % UInt64(paletteCount + 1))
                image.transparency = (0..<alphaCount).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            default: image.transparency = PNGSamplePacking.pack(choices[0], bitDepth: 16)
            }
        }
        return image
    }
}

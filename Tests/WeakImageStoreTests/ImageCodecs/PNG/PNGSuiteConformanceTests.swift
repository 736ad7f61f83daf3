import Foundation
import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

/// The decoder against PngSuite: libpng's pixels for every valid file, one exact error for every
/// broken one.
final class PNGSuiteConformanceTests: XCTestCase {
    /// What each broken file contains (checked against the files' bytes) and must be rejected for.
    private static let expectedErrors: [String: PNGError] = [
        "xc1n0g08.png": .invalidColorType(1),
        "xc9n2c08.png": .invalidColorType(9),
        "xcrn0g04.png": .badSignature,  // signature bytes 0D 0A turned into 0D 0D ... 0D
        "xcsn0g01.png": .checksumMismatch(chunk: "IDAT", declared: 0x4353_554D, computed: 0xD02F_14C9),
        "xd0n2c08.png": .invalidBitDepth(0, colorType: 2),
        "xd3n2c08.png": .invalidBitDepth(3, colorType: 2),
        "xd9n2c08.png": .invalidBitDepth(99, colorType: 2),
        "xdtn0g01.png": .missingChunk("IDAT"),
        "xhdn0g08.png": .checksumMismatch(chunk: "IHDR", declared: 0x4353_554D, computed: 0x5611_2528),
        "xlfn0g04.png": .badSignature,  // 0D 0A turned into 0A 0A
        "xs1n0g01.png": .badSignature,
        "xs2n0g01.png": .badSignature,
        "xs4n0g01.png": .badSignature,
        "xs7n0g01.png": .badSignature,
    ]

    func test_everyValidSuiteFile_matchesLibpngPixels() throws {
        // Given
        let entries = try PNGTestFiles.manifest().filter(\.isValid)
        XCTAssertEqual(entries.count, 161, "MANIFEST.tsv should list 161 valid files")
        for entry in entries {
            // When
            let bitmap: Bitmap
            switch PNGTestFiles.decodedBothWays(try PNGTestFiles.suiteFile(entry.name)) {
            case .success(let decoded):
                bitmap = decoded
            case .failure(let error):
                XCTFail("\(entry.name): threw \(error)")
                continue
            }
            // Then
            XCTAssertEqual(bitmap.width, entry.width, "\(entry.name): width")
            XCTAssertEqual(bitmap.height, entry.height, "\(entry.name): height")
            let expected = try PNGTestFiles.reference(entry.name)
            let actual = bitmap.rgba8()
            guard actual != expected else { continue }
            guard actual.count == expected.count else {
                XCTFail("\(entry.name): \(actual.count) RGBA bytes, reference has \(expected.count)")
                continue
            }
            let firstDifference = zip(actual, expected).enumerated().first { $0.element.0 != $0.element.1 }?.offset ?? 0
            let pixel = firstDifference / 4
            XCTFail(
                "\(entry.name): first differing pixel (x \(pixel % bitmap.width), y \(pixel / bitmap.width)): "
                    + "decoded \(Array(actual[(pixel * 4)..<(pixel * 4 + 4)])), "
                    + "libpng \(Array(expected[(pixel * 4)..<(pixel * 4 + 4)]))"
            )
        }
    }

    func test_everyValidSuiteFile_keepsTheSmallestFaithfulFormat() throws {
        for entry in try PNGTestFiles.manifest().filter(\.isValid) {
            // Given: the color type and tRNS presence, read from the file's own chunks
            let file = [UInt8](try PNGTestFiles.suiteFile(entry.name))
            let colorType = file[25]
            let hasTransparency = Self.chunkTypes(of: file).contains("tRNS")
            let expected: PixelFormat =
                switch colorType {
                case 0: hasTransparency ? .grayAlpha8 : .gray8
                case 4: .grayAlpha8
                default: .rgba8
                }
            // When
            let bitmap = try PNGDecoder().decode(Data(file), scale: 1)
            // Then
            XCTAssertEqual(bitmap.format, expected, "\(entry.name): color type \(colorType), tRNS \(hasTransparency)")
        }
    }

    func test_everyBrokenSuiteFile_throwsItsExactError() throws {
        // Given
        let entries = try PNGTestFiles.manifest().filter { !$0.isValid }
        XCTAssertEqual(entries.count, 14, "MANIFEST.tsv should list 14 broken files")
        for entry in entries {
            guard let expected = Self.expectedErrors[entry.name] else {
                XCTFail("\(entry.name): no expected error in the table")
                continue
            }
            // When
            let error = PNGTestFiles.decodingError(try PNGTestFiles.suiteFile(entry.name))
            // Then
            XCTAssertEqual(error, expected, "\(entry.name)")
        }
    }

    func test_decode_recordsTheScaleItIsGiven() throws {
        // Given
        let file = try PNGTestFiles.suiteFile("basn6a08.png")
        // When
        let bitmap = try PNGDecoder().decode(file, scale: 3)
        // Then
        XCTAssertEqual(bitmap.scale, 3)
        XCTAssertEqual(bitmap.pointSize.width, 32.0 / 3)
    }

    func test_brokenSuiteFiles_haveReadableDescriptions() {
        for (name, error) in Self.expectedErrors {
            XCTAssertFalse(error.description.isEmpty, name)
        }
        XCTAssertEqual(
            PNGError.checksumMismatch(chunk: "IDAT", declared: 0x4353_554D, computed: 0xD02F_14C9).description,
            "IDAT chunk CRC mismatch: declared 0x4353554D, computed 0xD02F14C9"
        )
    }

    /// The chunk types of a well-framed file, in order.
    private static func chunkTypes(of file: [UInt8]) -> [String] {
        var types: [String] = []
        var offset = 8
        while offset + 8 <= file.count {
            let length = file[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) }
            types.append(String(decoding: file[(offset + 4)..<(offset + 8)], as: UTF8.self))
            offset += 12 + length
        }
        return types
    }
}

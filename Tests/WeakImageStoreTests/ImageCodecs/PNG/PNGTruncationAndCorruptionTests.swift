import Foundation
import ImageStoreTestSupport
import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

/// Hostile input: every truncation and thousands of seeded random corruptions must end in a
/// bitmap or a thrown ``PNGError``, never a crash, a hang or an out-of-bounds access.
final class PNGTruncationAndCorruptionTests: XCTestCase {
    private typealias Files = PNGTestFiles

    /// A 1-bit gray, an interlaced 16-bit RGBA and a palette file with tRNS.
    private static let suiteFiles = ["basn0g01.png", "basi6a16.png", "tbbn3p08.png"]

    func test_everyTruncation_ofSuiteFiles_throws() throws {
        for name in Self.suiteFiles {
            // Given
            let file = try Files.suiteFile(name)
            XCTAssertNil(Files.decodingError(file), name)
            for count in 0..<file.count {
                // When
                let error = Files.decodingError(file.prefix(count))
                // Then
                XCTAssertNotNil(error, "\(name) cut to \(count) of \(file.count) bytes decoded")
            }
        }
    }

    func test_randomByteCorruption_decodesOrThrows() throws {
        var random = SeededGenerator(seed: 2024)
        var outcomes: [String: Int] = [:]
        for name in Self.suiteFiles {
            let original = [UInt8](try Files.suiteFile(name))
            for _ in 0..<700 {
                // Given: one to four random bytes replaced
                var file = original
                for _ in 0..<(1 + Int(random.next() % 4)) {
                    file[Int(random.next() % UInt64(file.count))] = UInt8(truncatingIfNeeded: random.next())
                }
                // When / Then: either outcome is fine; a crash or hang fails the test run
                outcomes[outcome(of: Data(file)), default: 0] += 1
            }
        }
        XCTAssertEqual(outcomes.values.reduce(0, +), 2_100)
        XCTAssertNotNil(outcomes["checksumMismatch"], "most corruptions should be caught by a CRC: \(outcomes)")
    }

    func test_corruptionWithRepairedCRCs_reachesTheInflaterAndUnfilter_andDecodesOrThrows() throws {
        var random = SeededGenerator(seed: 77)
        var outcomes: [String: Int] = [:]
        for name in Self.suiteFiles + ["basn2c08.png", "basi0g04.png", "f04n2c08.png", "z09n2c08.png"] {
            let original = [UInt8](try Files.suiteFile(name))
            for round in 0..<300 {
                // Given: bytes changed after the signature, then every CRC made valid again, so
                // the damage reaches the header checks, the inflater and the unfiltering
                var file = original
                let changes = round % 3 == 0 ? 1 : 1 + Int(random.next() % 8)
                for _ in 0..<changes {
                    let offset = 8 + Int(random.next() % UInt64(file.count - 8))
                    let flippedBit = file[offset] ^ (1 << (random.next() % 8))
                    file[offset] = random.next() % 2 == 0 ? UInt8(truncatingIfNeeded: random.next()) : flippedBit
                }
                Self.repairCRCs(&file)
                // When / Then
                outcomes[outcome(of: Data(file)), default: 0] += 1
            }
        }
        XCTAssertEqual(outcomes.values.reduce(0, +), 2_100)
        let reachedInflater = outcomes.keys.contains { $0.hasPrefix("inflate.") }
        XCTAssertTrue(reachedInflater, "some corruptions should reach the inflater: \(outcomes)")
    }

    func test_randomFilteredData_everyFormat_decodesOrReportsTheFilterType() throws {
        var random = SeededGenerator(seed: 5)
        let formats: [(colorType: UInt8, bitDepth: UInt8)] = [
            (0, 1), (0, 2), (0, 4), (0, 8), (0, 16), (2, 8), (2, 16), (3, 1), (3, 2), (3, 4), (3, 8),
            (4, 8), (4, 16), (6, 8), (6, 16),
        ]
        for (colorType, bitDepth) in formats {
            for interlaced in [false, true] {
                for round in 0..<12 {
                    // Given: random bytes as the decompressed data, the exact size the header needs
                    let width = 1 + Int(random.next() % 23)
                    let height = 1 + Int(random.next() % 23)
                    let layout = PNGTestDataLayout(
                        width: width, height: height, bitDepth: Int(bitDepth), colorType: colorType,
                        interlaced: interlaced
                    )
                    var data = (0..<layout.filteredByteCount).map { _ in UInt8(truncatingIfNeeded: random.next()) }
                    for rowStart in layout.rowStarts { data[rowStart] %= 5 }
                    // Every other round, one row gets an undefined filter type.
                    var badFilter: (type: UInt8, row: Int)?
                    if round % 2 == 1 {
                        let row = Int(random.next() % UInt64(layout.rowStarts.count))
                        let type = UInt8(5 + random.next() % 251)
                        data[layout.rowStarts[row]] = type
                        badFilter = (type, row)
                    }
                    let file = PNGFile.png(
                        width: UInt32(width), height: UInt32(height), bitDepth: bitDepth, colorType: colorType,
                        interlace: interlaced ? 1 : 0, chunksBeforeImageData: extraChunks(colorType, &random),
                        filteredData: data
                    )
                    // When
                    let error = Files.decodingError(file)
                    // Then
                    let label =
                        "color type \(colorType), \(bitDepth)-bit, interlaced \(interlaced), "
                        + "\(width) × \(height)"
                    XCTAssertEqual(error, badFilter.map { .badFilterType($0.type, row: $0.row) }, label)
                }
            }
        }
    }

    func test_randomCompressedData_decodesOrThrows() {
        var random = SeededGenerator(seed: 1_234)
        var outcomes: [String: Int] = [:]
        for round in 0..<1_500 {
            // Given: a valid zlib header and random deflate bits, for a small gray image
            let width = 1 + Int(random.next() % 64)
            let randomBytes = (0..<(Int(random.next() % 300))).map { _ in UInt8(truncatingIfNeeded: random.next()) }
            let stream: [UInt8] = [0x78, 0x9C] + randomBytes
            let blockType = UInt8(round % 3) << 1
            var compressed = stream
            if compressed.count > 2 { compressed[2] = compressed[2] & ~0b110 | blockType }
            let file = PNGFile.file(
                PNGFile.chunk("IHDR", PNGFile.header(width: UInt32(width), height: 4, bitDepth: 8, colorType: 0)),
                PNGFile.chunk("IDAT", compressed),
                PNGFile.chunk("IEND")
            )
            // When / Then
            outcomes[outcome(of: file), default: 0] += 1
        }
        XCTAssertEqual(outcomes.values.reduce(0, +), 1_500)
        XCTAssertGreaterThan(outcomes.count, 4, "random streams should fail in several ways: \(outcomes)")
    }

    // MARK: Helpers

    /// A random palette for palette images, sometimes a key color for gray and RGB images.
    private func extraChunks(_ colorType: UInt8, _ random: inout SeededGenerator) -> [[UInt8]] {
        switch colorType {
        case 3:
            let entryCount = 1 + Int(random.next() % 255)
            return [PNGFile.chunk("PLTE", (0..<(3 * entryCount)).map { UInt8(truncatingIfNeeded: $0) })]
        case 0, 2:
            guard random.next() % 2 == 0 else { return [] }
            return [PNGFile.chunk("tRNS", [UInt8](repeating: 0, count: colorType == 0 ? 2 : 6))]
        default:
            return []
        }
    }

    /// "decoded", or the error's case name ("inflate.distanceTooFarBack" for inflate errors).
    private func outcome(of file: Data) -> String {
        guard let error = Files.decodingError(file) else { return "decoded" }
        if case .inflate(let inflateError) = error { return "inflate." + caseName(inflateError) }
        return caseName(error)
    }

    private func caseName(_ error: some Error) -> String {
        // A case with associated values reflects as one child labelled with the case name.
        Mirror(reflecting: error).children.first?.label ?? String(describing: error)
    }

    /// Recomputes the CRC of every chunk whose framing is intact.
    private static func repairCRCs(_ file: inout [UInt8]) {
        var offset = 8
        while offset + 12 <= file.count {
            let length = file[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) }
            guard length <= file.count - offset - 12 else { return }
            let crc = file[(offset + 4)..<(offset + 8 + length)].withUnsafeBytes { CRC32.checksum($0) }
            file.replaceSubrange((offset + 8 + length)..<(offset + 12 + length), with: PNGFile.bigEndian(crc))
            offset += 12 + length
        }
    }
}

/// The layout of the decompressed data of an image, computed from the specification for tests.
private struct PNGTestDataLayout {
    let filteredByteCount: Int
    /// The offset of each row's filter type byte.
    let rowStarts: [Int]

    init(width: Int, height: Int, bitDepth: Int, colorType: UInt8, interlaced: Bool) {
        let channels = [0: 1, 2: 3, 3: 1, 4: 2, 6: 4][Int(colorType)] ?? 1
        let passes =
            interlaced
            ? [(0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2)]
            : [(0, 0, 1, 1)]
        var offset = 0
        var rowStarts: [Int] = []
        for (xStart, yStart, xStep, yStep) in passes {
            let passWidth = (width - xStart + xStep - 1) / xStep
            let passHeight = (height - yStart + yStep - 1) / yStep
            guard passWidth > 0, passHeight > 0 else { continue }
            let rowBytes = (passWidth * channels * bitDepth + 7) / 8
            for _ in 0..<passHeight {
                rowStarts.append(offset)
                offset += rowBytes + 1
            }
        }
        filteredByteCount = offset
        self.rowStarts = rowStarts
    }
}

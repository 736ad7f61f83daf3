import ImageStoreTestSupport
import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

/// CRC-32 and Adler-32 against published check values and a bytewise reference.
final class PNGChecksumTests: XCTestCase {
    func test_crc32_matchesTheStandardCheckValues() {
        XCTAssertEqual(crc32(Array("123456789".utf8)), 0xCBF4_3926)
        XCTAssertEqual(crc32([]), 0)
        XCTAssertEqual(crc32(Array("IEND".utf8)), 0xAE42_6082)
    }

    func test_crc32_matchesABitwiseReference_atEveryLengthAndAlignment() {
        var random = SeededGenerator(seed: 3)
        let bytes = (0..<300).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        for start in 0..<9 {
            for count in stride(from: 0, through: bytes.count - start, by: 7) {
                let slice = Array(bytes[start..<(start + count)])
                XCTAssertEqual(crc32(slice), Self.bitwiseCRC32(slice), "start \(start), count \(count)")
            }
        }
    }

    func test_crc32_matchesABitwiseReference_aroundTheTwoAndThreeChainRounds() {
        // Inputs of three blocks (3 072 bytes) and more run three chains and join them; two
        // blocks left (2 048 bytes and more) run two.
        let block = CRC32.blockCount
        var random = SeededGenerator(seed: 5)
        let bytes = (0..<(7 * block + 40)).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        for start in [0, 1, 3] {
            for count in [
                2 * block - 1, 2 * block, 2 * block + 5, 3 * block - 1, 3 * block, 3 * block + 1, 3 * block + 17,
                5 * block + 3, 6 * block, 7 * block + 33,
            ] {
                let slice = Array(bytes[start..<(start + count)])
                XCTAssertEqual(crc32(slice), Self.bitwiseCRC32(slice), "start \(start), count \(count)")
            }
        }
        let zeros = [UInt8](repeating: 0, count: 3 * block)
        XCTAssertEqual(crc32(zeros), Self.bitwiseCRC32(zeros), "zeros only")
    }

    func test_adler32_matchesTheKnownValues() {
        XCTAssertEqual(adler32(Array("Wikipedia".utf8)), 0x11E6_0398)
        XCTAssertEqual(adler32([]), 1)
    }

    func test_adler32_matchesTheDefinition_acrossBlockBoundaries() {
        // Lengths around the 16-byte steps, the 368-byte runs of 16-bit sums and the
        // 65 504-byte blocks, all bytes 255 (the worst case for overflow) and random bytes.
        var random = SeededGenerator(seed: 11)
        let random200k = (0..<200_000).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        let ones = [UInt8](repeating: 255, count: 200_000)
        for count in [1, 15, 16, 17, 367, 368, 369, 65_503, 65_504, 65_505, 65_536, 131_089, 200_000] {
            let randomPrefix = Array(random200k.prefix(count))
            let onesPrefix = Array(ones.prefix(count))
            XCTAssertEqual(adler32(randomPrefix), Self.definitionAdler32(randomPrefix), "random \(count)")
            XCTAssertEqual(adler32(onesPrefix), Self.definitionAdler32(onesPrefix), "0xFF × \(count)")
        }
    }

    private func crc32(_ bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBytes { CRC32.checksum($0) }
    }

    private func adler32(_ bytes: [UInt8]) -> UInt32 {
        bytes.withUnsafeBufferPointer { buffer in
            buffer.baseAddress.map { Adler32.checksum($0, count: buffer.count) } ?? 1
        }
    }

    private static func bitwiseCRC32(_ bytes: [UInt8]) -> UInt32 {
        var crc: UInt32 = 0xFFFF_FFFF
        for byte in bytes {
            crc ^= UInt32(byte)
            for _ in 0..<8 {
                crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1
            }
        }
        return ~crc
    }

    private static func definitionAdler32(_ bytes: [UInt8]) -> UInt32 {
        var a: UInt32 = 1
        var b: UInt32 = 0
        for byte in bytes {
            a = (a + UInt32(byte)) % 65_521
            b = (b + a) % 65_521
        }
        return b << 16 | a
    }
}

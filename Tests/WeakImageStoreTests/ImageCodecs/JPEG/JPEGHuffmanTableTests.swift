import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

final class JPEGHuffmanTableTests: XCTestCase {
    /// Decodes the symbols that `bytes` hold with `table`.
    private func decode(_ bytes: [UInt8], _ table: JPEGHuffmanTable, count: Int) -> [Int] {
        bytes.withUnsafeBufferPointer { buffer in
            var reader = JPEGBitReader(bytes: buffer.baseAddress!, count: buffer.count, position: 0)
            return (0..<count).map { _ in reader.decode(table) }
        }
    }

    func test_standardLuminanceDCTable_decodesK3Codes() throws {
        // Given: codes 00 (0), 010 (1), 110 (5), 1111 0 (7)... from Table K.3
        let table = try XCTUnwrap(JPEGHuffmanTable.standardTable(isDC: true, id: 0))
        // 00 010 110 11110 → 0001 0110 1111 0xxx
        let symbols = decode([0b0001_0110, 0b1111_0000], table, count: 4)
        XCTAssertEqual(symbols, [0, 1, 5, 7])
    }

    func test_longCodes_areDecodedPastTheLookupTable() throws {
        // Given: the luminance AC table of K.5: 0x82 has the only 15-bit code, 1111 1111 1000 000;
        // the 16-bit codes start at 1111 1111 1000 0010 (0x09), and 0x96 is the 65th of them.
        let table = try XCTUnwrap(JPEGHuffmanTable.standardTable(isDC: false, id: 0))
        // When
        let fifteen = decode([0xFF, 0x00, 0x80, 0x00], table, count: 1)
        let sixteen = decode([0xFF, 0x00, 0x82, 0x00], table, count: 1)
        let sixtyFifth = decode([0xFF, 0x00, 0xC2, 0x00], table, count: 1)
        // Then
        XCTAssertEqual(fifteen + sixteen + sixtyFifth, [0x82, 0x09, 0x96])
    }

    func test_invalidCode_decodesToMinusOne() throws {
        // Given: a table with the single code 0
        let table = try XCTUnwrap(JPEGHuffmanTable(counts: [1] + Array(repeating: 0, count: 15), symbols: [7]))
        // When: the bits are all ones
        let symbols = decode([0xFF, 0x00, 0xFF, 0x00, 0xFF, 0x00], table, count: 1)
        // Then
        XCTAssertEqual(symbols, [-1])
    }

    func test_oversubscribedOrCompleteCodes_areRejected_asLibjpegDoes() {
        XCTAssertNil(JPEGHuffmanTable(counts: [3] + Array(repeating: 0, count: 15), symbols: [0, 1, 2]))
        // Two 1-bit codes would use the all-ones code, which JPEG reserves.
        XCTAssertNil(JPEGHuffmanTable(counts: [2] + Array(repeating: 0, count: 15), symbols: [0, 1]))
        XCTAssertNotNil(JPEGHuffmanTable(counts: [1, 1] + Array(repeating: 0, count: 14), symbols: [0, 1]))
    }

    func test_countsThatDisagreeWithTheSymbols_areRejected() {
        XCTAssertNil(JPEGHuffmanTable(counts: [1] + Array(repeating: 0, count: 15), symbols: [0, 1]))
    }

    func test_aStandardDHTEntry_getsTheSharedTable_andAnyOtherANewOne() throws {
        // Given: the luminance AC entry of K.5, and the same with two symbols swapped
        let counts = StandardHuffmanTables.luminanceACCounts
        let symbols = StandardHuffmanTables.luminanceACSymbols
        var swapped = symbols
        swapped.swapAt(0, 1)
        // When
        let standard = try XCTUnwrap(JPEGHuffmanTable.make(counts: counts, symbols: symbols, isDC: false))
        let again = try XCTUnwrap(JPEGHuffmanTable.make(counts: counts, symbols: symbols, isDC: false))
        let other = try XCTUnwrap(JPEGHuffmanTable.make(counts: counts, symbols: swapped, isDC: false))
        let asDC = JPEGHuffmanTable.make(counts: counts, symbols: symbols, isDC: true)
        // Then: one shared table for the standard entry, which decodes as a new one does
        XCTAssertEqual(standard.pointers.coefficientPairs, again.pointers.coefficientPairs)
        XCTAssertNotEqual(other.pointers.coefficientPairs, standard.pointers.coefficientPairs)
        XCTAssertNotEqual(asDC?.pointers.coefficientPairs, standard.pointers.coefficientPairs)
        let built = try XCTUnwrap(JPEGHuffmanTable(counts: counts, symbols: symbols))
        let entries = 1 << JPEGHuffmanTable.lookupBits
        XCTAssertTrue(
            (0..<entries).allSatisfy { built.pointers.coefficientPairs[$0] == standard.pointers.coefficientPairs[$0] })
        XCTAssertTrue((0..<entries).allSatisfy { built.pointers.lookup[$0] == standard.pointers.lookup[$0] })
        // The swapped entry's first two codes decode to the swapped symbols.
        XCTAssertEqual(decode([0b0001_0000], other, count: 2), [0x02, 0x01])
        XCTAssertEqual(decode([0b0001_0000], standard, count: 2), [0x01, 0x02])
    }
}

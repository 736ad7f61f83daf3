import XCTest

@testable import ImageCodecs

/// The LZW stage alone, on code streams built here.
final class GIFLZWDecoderTests: XCTestCase {
    private func decode(
        _ codes: [Int], minimumCodeSize: Int = 2, capacity: Int = 64, appending extra: [UInt8] = []
    ) -> (indices: [Int], outcome: GIFLZWDecoder.Outcome) {
        let packed = GIFTestFile.pack(codes, minimumCodeSize: minimumCodeSize) + extra
        let input = packed + [UInt8](repeating: 0, count: GIFLZWDecoder.inputSlack)
        var output = [UInt8](repeating: 0xEE, count: capacity)
        let decoder = GIFLZWDecoder()
        let (written, outcome) = input.withUnsafeBytes { input in
            output.withUnsafeMutableBufferPointer { output in
                decoder.decode(
                    input.baseAddress!, count: packed.count, minimumCodeSize: minimumCodeSize, into: output)
            }
        }
        return (output[..<written].map(Int.init), outcome)
    }

    func test_literalsAndTableEntries_decode() {
        // 4 = clear, 5 = end; 6 = "1 2", 7 = "2 6's first"...
        let result = decode([4, 1, 2, 6, 3, 5])
        XCTAssertEqual(result.indices, [1, 2, 1, 2, 3])
        XCTAssertEqual(result.outcome, .finished)
    }

    func test_kwkwk_codeEqualToNextFree_isThePreviousStringAndItsFirstByte() {
        // After 1, the next free entry is 6; code 6 before it is defined means "1 1".
        let result = decode([4, 1, 6, 7, 5])
        XCTAssertEqual(result.indices, [1, 1, 1, 1, 1, 1])
        XCTAssertEqual(result.outcome, .finished)
    }

    func test_clearMidStream_resetsTheTableAndCodeSize() {
        // 6 = "1 2" before the clear; after it, 6 would be beyond the table.
        XCTAssertEqual(decode([4, 1, 2, 6, 4, 3, 3, 5]).indices, [1, 2, 1, 2, 3, 3])
        let afterClear = decode([4, 1, 2, 4, 3, 7, 5])
        XCTAssertEqual(afterClear.indices, [1, 2, 3])
        XCTAssertEqual(afterClear.outcome, .codeBeyondTable(code: 7, nextFree: 6))
    }

    func test_codeBeyondNextFree_isDamage_andStopsThere() {
        let result = decode([4, 1, 2, 3, 1, 14, 1, 5])
        XCTAssertEqual(result.indices, [1, 2, 3, 1])
        XCTAssertEqual(result.outcome, .codeBeyondTable(code: 14, nextFree: 9))
        XCTAssertEqual(decode([4, 6, 5]).outcome, .codeBeyondTable(code: 6, nextFree: 6))
    }

    func test_fullTableWithoutClear_staysFrozen_andKeepsDecoding() {
        // Given: 3839 literals fill entries 258…4095 (entry 258 + j = literal j, literal j + 1).
        let literals = (0..<3839).map { ($0 * 7 + $0 / 5) % 256 }
        // When: 12-bit codes follow without a clear, using entries and literals.
        let result = decode([256] + literals + [300, 4095, 17, 300, 257], minimumCodeSize: 8, capacity: 8000)
        // Then
        let expected =
            literals + [literals[42], literals[43], literals[3837], literals[3838], 17] + [
                literals[42], literals[43],
            ]
        XCTAssertEqual(result.indices, expected)
        XCTAssertEqual(result.outcome, .finished)
    }

    func test_endOfInformation_ignoresWhatFollows_andEndOfDataIsReported() {
        XCTAssertEqual(decode([4, 1, 5, 2, 3], appending: [0xFF, 0xFF]).indices, [1])
        // 3 + 3 + 3 + 3 + 4 bits: two whole bytes, no padding to read as codes.
        let cut = decode([4, 1, 2, 3, 1])
        XCTAssertEqual(cut.indices, [1, 2, 3, 1])
        XCTAssertEqual(cut.outcome, .endOfData)
    }

    func test_fullOutput_stopsDecoding_andClipsTheLastString() {
        let result = decode([4, 1, 2, 6, 6, 14], capacity: 5)
        XCTAssertEqual(result.indices, [1, 2, 1, 2, 1])
        XCTAssertEqual(result.outcome, .finished)
    }

    func test_minimumCodeSizeOne_growsAfterTheFirstCode_asGiflib() {
        // clear = 2, end = 3; the code size is 2 for the first code, then 3.
        let result = decode([2, 1, 0, 4, 5, 3], minimumCodeSize: 1)
        XCTAssertEqual(result.indices, [1, 0, 1, 0, 0, 1])
        XCTAssertEqual(result.outcome, .finished)
    }

    func test_everyMinimumCodeSize_roundTripsLiterals() {
        for size in 1...8 {
            let indices = (0..<300).map { ($0 * 31 + 7) % (1 << size) }
            XCTAssertEqual(
                decode(GIFTestFile.literals(indices, minimumCodeSize: size), minimumCodeSize: size, capacity: 300)
                    .indices, indices, "size \(size)")
        }
    }
}

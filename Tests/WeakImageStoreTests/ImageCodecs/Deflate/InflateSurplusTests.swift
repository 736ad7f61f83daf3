import ImageStoreTestSupport
import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

/// Streams holding more than the output's size, decoded with ``Inflater/Surplus/discard``: the
/// output gets the first bytes, the rest is decoded without being kept; only running out of input
/// before the stream's end is an error then, as in libpng.
final class InflateSurplusTests: XCTestCase {
    func test_output_getsTheFirstBytes_ofAStoredBlock_andOfLiteralsAndMatches() throws {
        // Given
        var stored = DeflateStreamWriter()
        stored.storedBlock([1, 2, 3, 4, 5], isFinal: true)
        var coded = DeflateStreamWriter()
        coded.beginFixedBlock(isFinal: true)
        coded.literal(7)
        coded.literal(8)
        coded.match(length: 100, distance: 2)
        coded.endOfBlock()
        // When
        let fromStored = try inflate(stream(stored), expectedCount: 3)
        // Then: the match straddles the output's end at every possible point
        XCTAssertEqual(fromStored, [1, 2, 3])
        for count in 1...101 {
            XCTAssertEqual(try inflate(stream(coded), expectedCount: count), Array(coded.expectedOutput.prefix(count)))
        }
    }

    func test_surplusLongerThanTheWindow_isDecodedToItsEnd_withMatchesReachingAcrossSlides() throws {
        // Given: 200 KiB beyond a 10-byte output, matches reaching back the full 32 KiB
        var writer = DeflateStreamWriter()
        writer.beginFixedBlock(isFinal: false)
        for byte in 0..<200 { writer.literal(UInt8(truncatingIfNeeded: byte * 7)) }
        while writer.expectedOutput.count < 40_000 { writer.match(length: 258, distance: 199) }
        while writer.expectedOutput.count < 200_000 { writer.match(length: 258, distance: 32_768) }
        writer.endOfBlock()
        writer.storedBlock([UInt8](repeating: 9, count: 60_000), isFinal: true)
        let complete = stream(writer)
        // When / Then: the whole stream decodes, and the same stream cut short is truncated, so
        // the decoder went through every slide to the end without an error
        XCTAssertEqual(try inflate(complete, expectedCount: 10), Array(writer.expectedOutput.prefix(10)))
        XCTAssertEqual(inflateError(Array(complete.dropLast(5)), expectedCount: 10), .truncated)
    }

    func test_surplusChecksum_isNotChecked() throws {
        var writer = DeflateStreamWriter()
        writer.storedBlock([1, 2, 3, 4, 5], isFinal: true)
        var damaged = stream(writer)
        damaged[damaged.count - 1] ^= 1
        XCTAssertEqual(try inflate(damaged, expectedCount: 3), [1, 2, 3])
        XCTAssertEqual(
            inflateError(damaged, expectedCount: 5), .adlerMismatch(declared: 0x0028_0011, computed: 0x0028_0010))
    }

    func test_invalidDataInTheSurplus_isIgnored_butInvalidDataTheOutputNeeds_isNot() throws {
        // Given: a match reaching before the start of the data, after 3 literals (zlib reports
        // the distance only when it copies, so with 3 bytes wanted the error is past the output)
        var writer = DeflateStreamWriter()
        writer.beginFixedBlock(isFinal: true)
        writer.literal(1)
        writer.literal(2)
        writer.literal(3)
        writer.match(length: 3, distance: 4)
        writer.endOfBlock()
        let invalid = stream(writer)
        // Then
        XCTAssertEqual(try inflate(invalid, expectedCount: 3), [1, 2, 3])
        XCTAssertEqual(inflateError(invalid, expectedCount: 4), .distanceTooFarBack(distance: 4, available: 3))
    }

    func test_surplusCutShort_isTruncated_atEveryCut() {
        var writer = DeflateStreamWriter()
        writer.beginFixedBlock(isFinal: false)
        for byte in Array("surplus data, surplus data".utf8) { writer.literal(byte) }
        writer.match(length: 30, distance: 14)
        writer.endOfBlock()
        writer.storedBlock(Array("tail".utf8), isFinal: true)
        let complete = stream(writer)
        XCTAssertNoThrow(try inflate(complete, expectedCount: 5))
        // From the first cut that still holds the 5 output bytes (header, 3-bit block header, 5
        // literal codes of 8 bits: 2 + 6 bytes).
        for count in 8..<complete.count {
            XCTAssertEqual(
                inflateError(Array(complete.prefix(count)), expectedCount: 5), .truncated,
                "a stream cut to \(count) of \(complete.count) bytes"
            )
        }
    }

    func test_rejectMode_stillRejectsTheSurplus() {
        var writer = DeflateStreamWriter()
        writer.storedBlock([1, 2, 3, 4, 5], isFinal: true)
        XCTAssertEqual(inflateError(stream(writer), expectedCount: 3, surplus: .reject), .tooMuchData(expected: 3))
    }

    // MARK: Helpers

    private func stream(_ writer: DeflateStreamWriter) -> [UInt8] {
        var writer = writer
        let output = writer.expectedOutput
        return ZlibStream.wrap(writer.finish(), adlerOf: output)
    }

    /// Inflates `stream` through padded buffers, keeping `expectedCount` bytes.
    private func inflate(
        _ stream: [UInt8], expectedCount: Int, surplus: Inflater.Surplus = .discard
    ) throws(InflateError) -> [UInt8] {
        let input = UnsafeMutablePointer<UInt8>.allocate(capacity: stream.count + BitReader.padding)
        defer { input.deallocate() }
        input.initialize(from: stream, count: stream.count)
        (input + stream.count).initialize(repeating: 0, count: BitReader.padding)
        let output = UnsafeMutablePointer<UInt8>.allocate(capacity: expectedCount + Inflater.outputSlack)
        defer { output.deallocate() }
        var noChecksums = CRC32Lane()
        try Inflater.inflate(
            zlib: input, count: stream.count, into: output, count: expectedCount, surplus: surplus,
            checksumLane: &noChecksums)
        return Array(UnsafeBufferPointer(start: output, count: expectedCount))
    }

    private func inflateError(
        _ stream: [UInt8], expectedCount: Int, surplus: Inflater.Surplus = .discard
    ) -> InflateError? {
        do {
            _ = try inflate(stream, expectedCount: expectedCount, surplus: surplus)
            return nil
        } catch {
            return error
        }
    }
}

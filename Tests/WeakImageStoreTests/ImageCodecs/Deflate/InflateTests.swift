import ImageStoreTestSupport
import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

/// The zlib/deflate decoder on its own: every block type, overlapping matches, and each way a
/// stream can be invalid.
final class InflateTests: XCTestCase {
    // MARK: Valid streams

    func test_storedBlocks_copyTheirBytes_includingAnEmptyBlock() throws {
        // Given
        var writer = DeflateStreamWriter()
        writer.storedBlock(Array("stored ".utf8), isFinal: false)
        writer.storedBlock([], isFinal: false)
        writer.storedBlock(Array("blocks".utf8), isFinal: true)
        let expected = writer.expectedOutput
        let stream = ZlibStream.wrap(writer.finish(), adlerOf: expected)
        // When
        let output = try inflate(stream, expectedCount: expected.count)
        // Then
        XCTAssertEqual(String(decoding: output, as: UTF8.self), "stored blocks")
    }

    func test_fixedBlock_madeByZlib_decodes() throws {
        // Given: zlib.compressobj(9, DEFLATED, 15, 9, Z_FIXED) of the text below
        let stream: [UInt8] = [
            0x78, 0x01, 0x4B, 0x4C, 0x4A, 0x4E, 0xC4, 0x8D, 0x14, 0x32, 0x52, 0x73, 0x72, 0xF2, 0x91, 0x49,
            0x00, 0xBD, 0x42, 0x12, 0x19,
        ]
        let text = "abcabcabcabcabcabcabcabcabcabc hello hello hello"
        // When
        let output = try inflate(stream, expectedCount: text.utf8.count)
        // Then
        XCTAssertEqual(String(decoding: output, as: UTF8.self), text)
    }

    func test_dynamicBlock_madeByZlib_decodes() throws {
        // Given: zlib.compress(sampleText(600), 9), one dynamic block
        let stream: [UInt8] = [
            0x78, 0xDA, 0x6D, 0x51, 0xD1, 0x0E, 0x03, 0x21, 0x08, 0xFB, 0x15, 0x7E, 0xCD, 0x79, 0x3A, 0xC9,
            0x9C, 0x31, 0x97, 0xBB, 0x64, 0xD9, 0xD7, 0xCF, 0x81, 0x55, 0xD9, 0xED, 0x45, 0x4C, 0x69, 0x81,
            0x42, 0x2D, 0x77, 0x7A, 0x67, 0xBE, 0xD1, 0x16, 0x62, 0x76, 0x47, 0x20, 0xBF, 0x7B, 0xF2, 0xE9,
            0x2C, 0x8F, 0x81, 0x20, 0xA6, 0x33, 0xC6, 0xA7, 0x2B, 0x54, 0x5D, 0x38, 0x12, 0x45, 0xCE, 0x47,
            0xD8, 0x55, 0xAB, 0x7C, 0xE4, 0xB9, 0x28, 0x1F, 0xD1, 0x94, 0xAF, 0xFC, 0x0A, 0x19, 0xE2, 0xDA,
            0x9A, 0xDB, 0x5E, 0x5C, 0x1A, 0x9E, 0x9D, 0x07, 0xD1, 0x6D, 0x19, 0x4D, 0xE6, 0x03, 0xB5, 0xCC,
            0x31, 0x15, 0xDF, 0xC9, 0x25, 0x6F, 0x21, 0xD0, 0xBA, 0x3D, 0x69, 0xA7, 0x58, 0xFF, 0xAF, 0x13,
            0xF5, 0x00, 0x2B, 0xE8, 0x24, 0x14, 0xA5, 0x1B, 0x37, 0x3A, 0xDE, 0xBF, 0x0A, 0x57, 0x43, 0x76,
            0x7D, 0xFA, 0x02, 0xEB, 0x93, 0xB4, 0x75, 0x40, 0xF7, 0x53, 0x66, 0x12, 0xA4, 0xBF, 0xAA, 0x91,
            0x54, 0x48, 0x86, 0xB0, 0xD6, 0x57, 0xFB, 0x03, 0x37, 0xB7, 0x5A, 0x0E, 0x21, 0x55, 0xD4, 0xD0,
            0x38, 0x96, 0x68, 0x15, 0x5B, 0x97, 0x35, 0x2F, 0x6D, 0xAF, 0xD5, 0xDF, 0x56, 0x8C, 0x3F, 0x55,
            0x5B, 0xDE, 0x79,
        ]
        XCTAssertEqual((stream[2] >> 1) & 3, 2, "the vector should start with a dynamic block")
        // When
        let output = try inflate(stream, expectedCount: 600)
        // Then
        XCTAssertEqual(output, Self.sampleText(600))
    }

    func test_runOfOneByte_distanceOne_madeByZlib_decodes() throws {
        // Given: zlib.compress(b"x" + b"a" * 1000, 9)
        let stream: [UInt8] = [
            0x78, 0xDA, 0xAB, 0x48, 0x1C, 0x05, 0xA3, 0x60, 0x14, 0x0C, 0x7B, 0x00, 0x00, 0xCF, 0x2F, 0x7B, 0x70,
        ]
        // When
        let output = try inflate(stream, expectedCount: 1001)
        // Then
        XCTAssertEqual(output, Array("x".utf8) + [UInt8](repeating: UInt8(ascii: "a"), count: 1000))
    }

    func test_matchWithDistanceShorterThanLength_repeatsTheLastBytes() throws {
        for distance in 1...9 {
            // Given: `distance` distinct literals, then a long match reaching back `distance`
            var writer = DeflateStreamWriter()
            writer.beginFixedBlock(isFinal: true)
            for index in 0..<distance { writer.literal(UInt8(65 + index)) }
            writer.match(length: 258, distance: distance)
            writer.match(length: 3, distance: distance)
            writer.endOfBlock()
            let expected = writer.expectedOutput
            // When
            let output = try inflateWritten(writer)
            // Then
            XCTAssertEqual(output, expected, "distance \(distance)")
            XCTAssertEqual(output[distance + 257], UInt8(65 + 257 % distance), "distance \(distance)")
        }
    }

    func test_matchAtTheLargestDistance_readsAcrossAStoredBlock() throws {
        // Given: 32 768 bytes stored, then a match 32 768 back
        let stored = (0..<32_768).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ $0 >> 8) }
        var writer = DeflateStreamWriter()
        writer.storedBlock(stored, isFinal: false)
        writer.beginFixedBlock(isFinal: true)
        writer.match(length: 258, distance: 32_768)
        writer.endOfBlock()
        let expected = writer.expectedOutput
        // When
        let output = try inflateWritten(writer)
        // Then
        XCTAssertEqual(output, expected)
        XCTAssertEqual(Array(output[32_768...]), Array(stored[0..<258]))
    }

    func test_randomLiteralsAndMatches_decodeToWhatWasWritten() throws {
        // Given: every length 3...258 and distances of every size, in seeded random order
        var random = SeededGenerator(seed: 0x5EED)
        var writer = DeflateStreamWriter()
        writer.beginFixedBlock(isFinal: true)
        for _ in 0..<64 { writer.literal(UInt8(truncatingIfNeeded: random.next())) }
        for length in 3...258 {
            for _ in 0..<Int(random.next() % 4) { writer.literal(UInt8(truncatingIfNeeded: random.next())) }
            let available = writer.expectedOutput.count
            let distance = 1 + Int(random.next() % UInt64(min(available, 1 << Int(1 + random.next() % 15))))
            writer.match(length: length, distance: distance)
        }
        writer.endOfBlock()
        let expected = writer.expectedOutput
        // When
        let output = try inflateWritten(writer)
        // Then
        XCTAssertEqual(output, expected)
    }

    func test_dynamicBlock_withASingleOneBitDistanceCode_isAccepted() throws {
        // Given: literals 'a' and 'b' and end of block with 2-bit codes, one distance code of 1 bit
        var literalLengths = [Int](repeating: 0, count: 257)
        literalLengths[97] = 1
        literalLengths[98] = 2
        literalLengths[256] = 2
        var writer = DeflateStreamWriter()
        let codes = writer.beginDynamicBlock(isFinal: true, literalLengths: literalLengths, distanceLengths: [1])
        for symbol in [97, 98, 98, 97, 256] { writer.dynamicSymbol(symbol, codes: codes, lengths: literalLengths) }
        let expected = writer.expectedOutput
        // When
        let output = try inflate(ZlibStream.wrap(writer.finish(), adlerOf: expected), expectedCount: 4)
        // Then
        XCTAssertEqual(String(decoding: output, as: UTF8.self), "abba")
    }

    func test_dynamicBlocks_withRandomCompleteCodesOfEveryLength_decode() throws {
        // Given: 24 dynamic blocks, each with a random complete literal/length code whose lengths
        // reach 15 bits (long codes go through subtables, short ones fill the root by doubling),
        // and a random complete distance code; every used literal written in random order
        var random = SeededGenerator(seed: 0xC0DE5)
        var writer = DeflateStreamWriter()
        for block in 0..<24 {
            let literalCount = 2 + Int(random.next() % 256)
            var literalSymbols = Array(Array(0..<256).shuffled(using: &random).prefix(literalCount - 1)) + [256]
            literalSymbols.shuffle(using: &random)
            let codeLengths = Self.randomCompleteCodeLengths(count: literalCount, random: &random)
            var literalLengths = [Int](repeating: 0, count: 257)
            for (symbol, length) in zip(literalSymbols, codeLengths) { literalLengths[symbol] = length }
            let distanceLengths = Self.randomCompleteCodeLengths(count: 2 + Int(random.next() % 29), random: &random)
            let codes = writer.beginDynamicBlock(
                isFinal: block == 23, literalLengths: literalLengths, distanceLengths: distanceLengths)
            for _ in 0..<1_000 {
                let symbol = literalSymbols[Int(random.next() % UInt64(literalCount))]
                if symbol != 256 { writer.dynamicSymbol(symbol, codes: codes, lengths: literalLengths) }
            }
            writer.dynamicSymbol(256, codes: codes, lengths: literalLengths)
        }
        let expected = writer.expectedOutput
        // When
        let output = try inflateWritten(writer)
        // Then
        XCTAssertEqual(output, expected)
    }

    // MARK: Invalid streams

    func test_invalidHeaders_areRejected() {
        XCTAssertEqual(inflateError([0x78, 0x02], expectedCount: 0), .badHeader(cmf: 0x78, flg: 0x02))
        XCTAssertEqual(inflateError([0x77, 0x85], expectedCount: 0), .unsupportedMethod(cmf: 0x77))
        XCTAssertEqual(inflateError([0x88, 0x98], expectedCount: 0), .unsupportedMethod(cmf: 0x88))
        XCTAssertEqual(inflateError([0x78, 0xBB, 0, 0, 0, 0], expectedCount: 0), .presetDictionary)
    }

    func test_reservedBlockType_isRejected() {
        var writer = DeflateStreamWriter()
        writer.writeBits(0b111, count: 3)
        XCTAssertEqual(inflateError([0x78, 0x01] + writer.finish(), expectedCount: 1), .badBlockType)
    }

    func test_storedBlockWithWrongComplement_isRejected() {
        let stream: [UInt8] = [0x78, 0x01, 0x01, 0x05, 0x00, 0xFA, 0xFE, 1, 2, 3, 4, 5]
        XCTAssertEqual(inflateError(stream, expectedCount: 5), .storedLengthMismatch(length: 5, complement: 0xFEFA))
    }

    func test_dynamicBlockWithTooManyCodes_isRejected() {
        var writer = DeflateStreamWriter()
        writer.writeBits(0b101, count: 3)
        writer.writeBits(30, count: 5)
        writer.writeBits(0, count: 5)
        writer.writeBits(0, count: 4)
        XCTAssertEqual(
            inflateError([0x78, 0x01] + writer.finish() + [0, 0, 0, 0], expectedCount: 1),
            .tooManyCodes(literalLength: 287, distance: 1)
        )
    }

    func test_invalidCodeLengthCodes_areRejected() {
        // Over-subscribed: three 1-bit codes.
        XCTAssertEqual(
            inflateError(Self.dynamicHeader(codeLengthCodeLengths: [1, 1, 1]), expectedCount: 1),
            .invalidCodeLengths(.codeLength)
        )
        // Incomplete: one 1-bit code (allowed only for literal/length and distance codes).
        XCTAssertEqual(
            inflateError(Self.dynamicHeader(codeLengthCodeLengths: [0, 0, 0, 1]), expectedCount: 1),
            .invalidCodeLengths(.codeLength)
        )
    }

    func test_repeatWithoutAPreviousLength_isRejected() {
        // Symbol 16 ("repeat the previous length") first; 16 and 17 have 1-bit codes.
        var writer = DeflateStreamWriter()
        writer.writeBits(0b101, count: 3)
        writer.writeBits(0, count: 5)
        writer.writeBits(0, count: 5)
        writer.writeBits(0, count: 4)
        for length in [1, 1, 0, 0] { writer.writeBits(length, count: 3) }
        writer.writeCode(0, length: 1)
        XCTAssertEqual(inflateError([0x78, 0x01] + writer.finish() + [0, 0, 0, 0], expectedCount: 1), .invalidRepeat)
    }

    func test_literalLengthCodesWithoutEndOfBlock_orIncomplete_areRejected() {
        var noEnd = [Int](repeating: 0, count: 257)
        noEnd[65] = 1
        noEnd[66] = 1
        XCTAssertEqual(inflateError(Self.dynamicBlock(literalLengths: noEnd), expectedCount: 1), .missingEndOfBlock)

        var incomplete = [Int](repeating: 0, count: 257)
        incomplete[65] = 2
        incomplete[256] = 2
        XCTAssertEqual(
            inflateError(Self.dynamicBlock(literalLengths: incomplete), expectedCount: 1),
            .invalidCodeLengths(.literalLength)
        )

        var overSubscribed = [Int](repeating: 0, count: 257)
        overSubscribed[65] = 1
        overSubscribed[66] = 1
        overSubscribed[256] = 1
        XCTAssertEqual(
            inflateError(Self.dynamicBlock(literalLengths: overSubscribed), expectedCount: 1),
            .invalidCodeLengths(.literalLength)
        )
    }

    func test_reservedSymbols_areRejected() {
        var literal = DeflateStreamWriter()
        literal.beginFixedBlock(isFinal: true)
        literal.fixedSymbol(286)
        let literalStream = [0x78, 0x01] + literal.finish() + [0, 0, 0, 0]
        XCTAssertEqual(inflateError(literalStream, expectedCount: 9), .invalidCode(.literalLength))

        var distance = DeflateStreamWriter()
        distance.beginFixedBlock(isFinal: true)
        distance.literal(1)
        distance.fixedSymbol(257)
        distance.writeCode(30, length: 5)
        let distanceStream = [0x78, 0x01] + distance.finish() + [0, 0, 0, 0]
        XCTAssertEqual(inflateError(distanceStream, expectedCount: 9), .invalidCode(.distance))
    }

    func test_matchReachingBeforeTheStart_isRejected() {
        var writer = DeflateStreamWriter()
        writer.beginFixedBlock(isFinal: true)
        writer.literal(7)
        writer.match(length: 3, distance: 2)
        writer.endOfBlock()
        XCTAssertEqual(
            inflateError(ZlibStream.wrap(writer.finish(), adlerOf: [7, 0, 7, 0]), expectedCount: 4),
            .distanceTooFarBack(distance: 2, available: 1)
        )
    }

    func test_wrongAmountOfData_isRejected() {
        var writer = DeflateStreamWriter()
        writer.storedBlock([1, 2, 3, 4, 5], isFinal: true)
        let stream = ZlibStream.wrap(writer.finish(), adlerOf: [1, 2, 3, 4, 5])
        XCTAssertEqual(inflateError(stream, expectedCount: 4), .tooMuchData(expected: 4))
        XCTAssertEqual(inflateError(stream, expectedCount: 6), .tooLittleData(expected: 6, actual: 5))
        XCTAssertNoThrow(try inflate(stream, expectedCount: 5))

        var matches = DeflateStreamWriter()
        matches.beginFixedBlock(isFinal: true)
        matches.literal(1)
        matches.match(length: 100, distance: 1)
        matches.endOfBlock()
        let matchStream = ZlibStream.wrap(matches.finish(), adlerOf: matches.expectedOutput)
        XCTAssertEqual(inflateError(matchStream, expectedCount: 100), .tooMuchData(expected: 100))
        XCTAssertEqual(inflateError(matchStream, expectedCount: 0), .tooMuchData(expected: 0))
    }

    func test_wrongAdler32_isRejected() {
        var writer = DeflateStreamWriter()
        writer.storedBlock([1, 2, 3], isFinal: true)
        var stream = ZlibStream.wrap(writer.finish(), adlerOf: [1, 2, 3])
        stream[stream.count - 1] ^= 0x01
        XCTAssertEqual(
            inflateError(stream, expectedCount: 3), .adlerMismatch(declared: 0x000D_0006, computed: 0x000D_0007)
        )
    }

    func test_everyTruncation_ofAValidStream_isRejected() {
        var writer = DeflateStreamWriter()
        writer.beginFixedBlock(isFinal: false)
        for byte in Array("truncate me, truncate me".utf8) { writer.literal(byte) }
        writer.match(length: 40, distance: 13)
        writer.endOfBlock()
        writer.storedBlock(Array("stored tail".utf8), isFinal: true)
        let expected = writer.expectedOutput
        let stream = ZlibStream.wrap(writer.finish(), adlerOf: expected)
        XCTAssertNoThrow(try inflate(stream, expectedCount: expected.count))
        for count in 0..<stream.count {
            let error = inflateError(Array(stream[0..<count]), expectedCount: expected.count)
            XCTAssertNotNil(error, "a stream cut to \(count) of \(stream.count) bytes must be rejected")
        }
        XCTAssertEqual(inflateError(Array(stream.dropLast(4)), expectedCount: expected.count), .truncated)
        XCTAssertEqual(inflateError(Array(stream.prefix(12)), expectedCount: expected.count), .truncated)
    }

    // MARK: Stopping

    func test_shouldStop_isAskedBetweenBlocks_andStopsBeforeTheNext() throws {
        var writer = DeflateStreamWriter()
        writer.storedBlock(Array("first ".utf8), isFinal: false)
        writer.storedBlock(Array("second ".utf8), isFinal: false)
        writer.storedBlock(Array("third".utf8), isFinal: true)
        let expected = writer.expectedOutput
        let stream = ZlibStream.wrap(writer.finish(), adlerOf: expected)
        var questions = 0

        let stopped = try inflate(stream, expectedCount: expected.count) {
            questions += 1
            return questions == 2
        }

        XCTAssertFalse(stopped.completed)
        XCTAssertEqual(questions, 2, "asked before the second and the third block")
        XCTAssertEqual(String(decoding: stopped.output.prefix(13), as: UTF8.self), "first second ")
        let finished = try inflate(stream, expectedCount: expected.count) { false }
        XCTAssertTrue(finished.completed)
        XCTAssertEqual(finished.output, expected)
    }

    // MARK: Helpers

    /// Inflates `stream` into exactly `expectedCount` bytes through padded buffers, as the PNG
    /// decoder does.
    /// The lengths of a complete prefix code of `count` codes, at most 15 bits: a 1-bit pair of
    /// codes whose random leaves are split in two until there are `count`.
    private static func randomCompleteCodeLengths(count: Int, random: inout SeededGenerator) -> [Int] {
        var lengths = [1, 1]
        while lengths.count < count {
            let splittable = lengths.indices.filter { lengths[$0] < 15 }
            // Prefer the longest leaves half the time, so that codes reach 15 bits.
            let index =
                random.next() % 2 == 0
                ? splittable.max { lengths[$0] < lengths[$1] }!
                : splittable[Int(random.next() % UInt64(splittable.count))]
            lengths[index] += 1
            lengths.append(lengths[index])
        }
        return lengths.shuffled(using: &random)
    }

    private func inflate(_ stream: [UInt8], expectedCount: Int) throws(InflateError) -> [UInt8] {
        try inflate(stream, expectedCount: expectedCount, shouldStop: nil).output
    }

    /// ``inflate(_:expectedCount:)`` asking `shouldStop` between blocks.
    private func inflate(
        _ stream: [UInt8], expectedCount: Int, shouldStop: (() -> Bool)?
    ) throws(InflateError) -> (completed: Bool, output: [UInt8]) {
        let input = UnsafeMutablePointer<UInt8>.allocate(capacity: stream.count + BitReader.padding)
        defer { input.deallocate() }
        input.initialize(from: stream, count: stream.count)
        (input + stream.count).initialize(repeating: 0, count: BitReader.padding)
        let output = UnsafeMutablePointer<UInt8>.allocate(capacity: expectedCount + Inflater.outputSlack)
        defer { output.deallocate() }
        output.initialize(repeating: 0, count: expectedCount + Inflater.outputSlack)
        var noChecksums = CRC32Lane()
        let completed = try Inflater.inflate(
            zlib: input, count: stream.count, into: output, count: expectedCount, checksumLane: &noChecksums,
            shouldStop: shouldStop)
        return (completed, Array(UnsafeBufferPointer(start: output, count: expectedCount)))
    }

    /// Inflates what `writer` wrote, in a zlib stream, into exactly its expected output's size.
    private func inflateWritten(_ writer: DeflateStreamWriter) throws(InflateError) -> [UInt8] {
        var writer = writer
        let expected = writer.expectedOutput
        return try inflate(ZlibStream.wrap(writer.finish(), adlerOf: expected), expectedCount: expected.count)
    }

    private func inflateError(_ stream: [UInt8], expectedCount: Int) -> InflateError? {
        do {
            _ = try inflate(stream, expectedCount: expectedCount)
            return nil
        } catch {
            return error
        }
    }

    /// A zlib stream starting with a dynamic block header whose code-length code has the given
    /// lengths (in the header's order), followed by zero bytes.
    private static func dynamicHeader(codeLengthCodeLengths: [Int]) -> [UInt8] {
        var writer = DeflateStreamWriter()
        writer.writeBits(0b101, count: 3)
        writer.writeBits(0, count: 5)
        writer.writeBits(0, count: 5)
        writer.writeBits(max(0, codeLengthCodeLengths.count - 4), count: 4)
        for index in 0..<max(4, codeLengthCodeLengths.count) {
            writer.writeBits(index < codeLengthCodeLengths.count ? codeLengthCodeLengths[index] : 0, count: 3)
        }
        return [0x78, 0x01] + writer.finish() + [UInt8](repeating: 0, count: 8)
    }

    /// A zlib stream starting with a final dynamic block with the given literal/length code and
    /// one 1-bit distance code, followed by zero bytes.
    private static func dynamicBlock(literalLengths: [Int]) -> [UInt8] {
        var writer = DeflateStreamWriter()
        _ = writer.beginDynamicBlock(isFinal: true, literalLengths: literalLengths, distanceLengths: [1])
        return [0x78, 0x01] + writer.finish() + [UInt8](repeating: 0, count: 8)
    }

    /// The sample text the dynamic vector compresses: words picked by a linear congruential
    /// generator (the same one the Python script that made the vector used).
    private static func sampleText(_ count: Int) -> [UInt8] {
        let words = [
            "png", "deflate", "huffman", "inflate", "zlib", "adler",
            "crc", "chunk", "pixel", "filter", "paeth", "interlace",
        ]
        var state = 12_345
        var text: [UInt8] = []
        while text.count < count {
            state = (state * 1_103_515_245 + 12_345) % 2_147_483_648
            text += Array((words[(state >> 16) % words.count] + " ").utf8)
        }
        return Array(text.prefix(count))
    }
}

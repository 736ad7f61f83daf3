import ImageStoreTestSupport
import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

/// The progressive AC block decoders (state in local variables) against the plain T.81 G.1.2.2
/// and G.1.2.3 loops, one symbol and one bit at a time through the reader, on random
/// entropy-coded data, random bands and point transforms, and random earlier coefficients.
final class JPEGProgressiveBlockTests: XCTestCase {
    /// A band of a scan: zigzag positions `start...end`, point transform `shift`.
    private struct Band {
        let start: Int
        let end: Int
        let shift: Int
    }

    /// The plain AC first decoder; returns the end-of-band run, or `nil` for an invalid code.
    private func referenceACFirst(
        _ reader: inout JPEGBitReader, _ block: inout [Int16], table: JPEGHuffmanTable, band: Band
    ) -> Int? {
        var index = band.start
        while index <= band.end {
            let symbol = reader.decode(table)
            guard symbol >= 0 else { return nil }
            let run = symbol >> 4
            let size = symbol & 15
            if size != 0 {
                index += run
                let value = reader.signedValue(size)
                block[jpegNaturalOrder[min(index, 79)]] = Int16(truncatingIfNeeded: value << band.shift)
            } else if run == 15 {
                index += 15
            } else {
                return (1 << run) + reader.bits(run) - 1
            }
            index += 1
        }
        return 0
    }

    /// The plain AC refinement decoder; returns the end-of-band run, or `nil` for an invalid code.
    private func referenceACRefinement(
        _ reader: inout JPEGBitReader, _ block: inout [Int16], table: JPEGHuffmanTable, band: Band,
        endOfBandRun: Int
    ) -> Int? {
        let plusOne = Int16(truncatingIfNeeded: 1 << band.shift)
        let minusOne = Int16(truncatingIfNeeded: -1 << band.shift)
        var endOfBandRun = endOfBandRun
        var index = band.start
        func correct(at position: Int) {
            let coefficient = block[position]
            if reader.bit() != 0 && coefficient & plusOne == 0 {
                block[position] = coefficient >= 0 ? coefficient &+ plusOne : coefficient &+ minusOne
            }
        }
        if endOfBandRun == 0 {
            while index <= band.end {
                let symbol = reader.decode(table)
                guard symbol >= 0 else { return nil }
                var run = symbol >> 4
                var value: Int16 = 0
                if symbol & 15 != 0 {
                    value = reader.bit() != 0 ? plusOne : minusOne
                } else if run != 15 {
                    endOfBandRun = (1 << run) + reader.bits(run)
                    break
                }
                repeat {
                    let position = jpegNaturalOrder[index]
                    if block[position] != 0 {
                        correct(at: position)
                    } else {
                        run -= 1
                        if run < 0 { break }
                    }
                    index += 1
                } while index <= band.end
                if value != 0 { block[jpegNaturalOrder[index]] = value }
                index += 1
            }
        }
        if endOfBandRun > 0 {
            while index <= band.end {
                if block[jpegNaturalOrder[index]] != 0 { correct(at: jpegNaturalOrder[index]) }
                index += 1
            }
            endOfBandRun -= 1
        }
        return endOfBandRun
    }

    /// The standard luminance AC table with end-of-band runs (EOB1...EOB14) in place of 14 of
    /// its codes of 5 to 8 bits, which random data then meets often.
    private var tableWithRuns: JPEGHuffmanTable? {
        var symbols = StandardHuffmanTables.luminanceACSymbols
        for run in 1...14 { symbols[run + 8] = UInt8(run << 4) }
        return JPEGHuffmanTable(counts: StandardHuffmanTables.luminanceACCounts, symbols: symbols)
    }

    /// Random bytes, with `FF` stuffed as `FF 00` now and then, ending in an EOI marker.
    private func randomScanData(count: Int, random: inout SeededGenerator) -> [UInt8] {
        var bytes: [UInt8] = []
        while bytes.count < count {
            let byte = UInt8(truncatingIfNeeded: random.next())
            bytes.append(byte)
            if byte == 0xFF { bytes.append(0) }
        }
        return bytes + [0xFF, 0xD9]
    }

    /// Earlier coefficients for a refinement: about a third nonzero, any of their low bits set.
    private func randomBlock(band: Band, random: inout SeededGenerator) -> [Int16] {
        var block = [Int16](repeating: 0, count: 64)
        for zigzag in 0..<64 where random.next() % 3 == 0 {
            let largest = UInt64(min(200, Int(Int16.max) >> (band.shift + 1)))
            let magnitude = Int16((random.next() % largest + 1) << band.shift)
            block[jpegNaturalOrder[zigzag]] = random.next() % 2 == 0 ? magnitude : -magnitude
        }
        return block
    }

    /// Decodes blocks with both decoders until the data runs out, comparing each block.
    ///
    /// - Returns: The number of blocks compared, and of blocks an end-of-band run covered.
    private func compare(refinement: Bool, seed: UInt64) throws -> (blocks: Int, inRuns: Int) {
        var random = SeededGenerator(seed: seed)
        let table = try XCTUnwrap(seed % 2 == 0 ? tableWithRuns : JPEGHuffmanTable.standardTable(isDC: false, id: 1))
        let start = Int(random.next() % 63) + 1
        let end = start + Int(random.next() % UInt64(64 - start))
        let band = Band(start: start, end: end, shift: Int(random.next() % 14))
        let bytes = randomScanData(count: 20_000, random: &random)
        var blocks = 0
        var inRuns = 0
        bytes.withUnsafeBufferPointer { buffer in
            var expected = JPEGBitReader(bytes: buffer.baseAddress!, count: buffer.count, position: 0)
            expected.substitutesInvalidCodes = seed % 4 >= 2
            var actual = expected
            var expectedRun = 0
            var actualRun = 0
            while !expected.consumedPadding {
                var reference = refinement ? randomBlock(band: band, random: &random) : [Int16](repeating: 0, count: 64)
                var decoded = reference
                if refinement {
                    if expectedRun > 0 { inRuns += 1 }
                    let run = referenceACRefinement(
                        &expected, &reference, table: table, band: band, endOfBandRun: expectedRun)
                    let decodedRun = decoded.withUnsafeMutableBufferPointer { block in
                        actual.decodeACRefinementBlock(
                            into: block.baseAddress!, table: table.pointers, endOfBandRun: actualRun,
                            start: band.start, end: band.end, shift: band.shift, order: jpegNaturalOrderTable.pointer,
                            zigzagIndices: jpegZigzagIndexTable.pointer)
                    }
                    XCTAssertEqual(decodedRun, run, "block \(blocks), seed \(seed)")
                    guard let run, decodedRun == run else { return }
                    expectedRun = run
                    actualRun = run
                } else if expectedRun > 0 {
                    inRuns += 1
                    expectedRun -= 1
                    actualRun -= 1
                } else {
                    let run = referenceACFirst(&expected, &reference, table: table, band: band)
                    let decodedRun = decoded.withUnsafeMutableBufferPointer { block in
                        actual.decodeACFirstBlock(
                            into: block.baseAddress!, table: table.pointers, start: band.start, end: band.end,
                            shift: band.shift, order: jpegNaturalOrderTable.pointer)
                    }
                    XCTAssertEqual(decodedRun, run, "block \(blocks), seed \(seed)")
                    guard let run, decodedRun == run else { return }
                    expectedRun = run
                    actualRun = run
                }
                XCTAssertEqual(decoded, reference, "block \(blocks), seed \(seed)")
                XCTAssertEqual(actual.consumedPadding, expected.consumedPadding, "block \(blocks), seed \(seed)")
                XCTAssertEqual(actual.metInvalidCode, expected.metInvalidCode, "block \(blocks), seed \(seed)")
                guard decoded == reference else { return }
                blocks += 1
            }
        }
        return (blocks, inRuns)
    }

    func test_acFirstBlocks_decodeAsThePlainLoopDecodesThem() throws {
        var blocks = 0
        var inRuns = 0
        for seed in 0..<32 as Range<UInt64> {
            let counts = try compare(refinement: false, seed: seed)
            blocks += counts.blocks
            inRuns += counts.inRuns
        }
        XCTAssertGreaterThan(blocks, 5_000)
        XCTAssertGreaterThan(inRuns, 1_000)
    }

    func test_acRefinementBlocks_decodeAsThePlainLoopDecodesThem() throws {
        var blocks = 0
        var inRuns = 0
        for seed in 0..<32 as Range<UInt64> {
            let counts = try compare(refinement: true, seed: seed)
            blocks += counts.blocks
            inRuns += counts.inRuns
        }
        XCTAssertGreaterThan(blocks, 5_000)
        XCTAssertGreaterThan(inRuns, 1_000)
    }
}

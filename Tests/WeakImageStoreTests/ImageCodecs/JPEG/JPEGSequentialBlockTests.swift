import ImageStoreTestSupport
import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

/// The sequential block decoder (coefficient pairs, refills on every step) against the plain
/// T.81 F.2.2 loop, one symbol at a time, on random entropy-coded data.
final class JPEGSequentialBlockTests: XCTestCase {
    private struct Block: Equatable {
        var difference: Int
        var coefficients: [Int16]
    }

    /// The plain decoder: one symbol per step through `decode(_:)` and `signedValue(_:)`,
    /// writing only nonzero coefficients over `coefficients`.
    private func referenceBlock(
        _ reader: inout JPEGBitReader, dc: JPEGHuffmanTable, ac: JPEGHuffmanTable, over coefficients: [Int16]
    ) -> (block: Block, lastPosition: Int)? {
        let size = reader.decode(dc)
        guard size >= 0 else { return nil }
        var block = Block(difference: reader.signedValue(size), coefficients: coefficients)
        var index = 1
        var lastPosition = 0
        while index < 64 {
            let symbol = reader.decode(ac)
            guard symbol >= 0 else { return nil }
            let run = symbol >> 4
            let size = symbol & 15
            if size != 0 {
                index += run
                lastPosition = min(index, 63)
                block.coefficients[jpegNaturalOrder[min(index, 79)]] = Int16(
                    truncatingIfNeeded: reader.signedValue(size))
            } else {
                if run != 15 { break }
                index += 15
            }
            index += 1
        }
        return (block, lastPosition)
    }

    private func fastBlock(
        _ reader: inout JPEGBitReader, dc: JPEGHuffmanTable, ac: JPEGHuffmanTable, over coefficients: [Int16]
    ) -> Block? {
        var coefficients = coefficients
        let difference = coefficients.withUnsafeMutableBufferPointer { block in
            reader.decodeSequentialBlock(
                into: block.baseAddress!, dcTable: dc.pointers, acTable: ac.pointers,
                order: jpegNaturalOrderTable.pointer)
        }
        return difference.map { Block(difference: $0, coefficients: coefficients) }
    }

    /// Random bytes, with `FF` stuffed as `FF 00` now and then, ending in an EOI marker.
    private func randomScanData(count: Int, seed: UInt64) -> [UInt8] {
        var random = SeededGenerator(seed: seed)
        var bytes: [UInt8] = []
        while bytes.count < count {
            let byte = UInt8(truncatingIfNeeded: random.next())
            bytes.append(byte)
            if byte == 0xFF { bytes.append(0) }
        }
        return bytes + [0xFF, 0xD9]
    }

    func test_blocks_decodeAsTheOneSymbolLoopDecodesThem() throws {
        let tables = [
            (
                try XCTUnwrap(JPEGHuffmanTable.standardTable(isDC: true, id: 0)),
                try XCTUnwrap(JPEGHuffmanTable.standardTable(isDC: false, id: 0))
            ),
            (
                try XCTUnwrap(JPEGHuffmanTable.standardTable(isDC: true, id: 1)),
                try XCTUnwrap(JPEGHuffmanTable.standardTable(isDC: false, id: 1))
            ),
        ]
        var blocks = 0
        var endingAt63 = 0
        var random = SeededGenerator(seed: 99)
        for seed in 0..<16 as Range<UInt64> {
            let (dc, ac) = tables[Int(seed) % 2]
            let bytes = randomScanData(count: 40_000, seed: seed)
            bytes.withUnsafeBufferPointer { buffer in
                var expected = JPEGBitReader(bytes: buffer.baseAddress!, count: buffer.count, position: 0)
                var actual = expected
                while !expected.consumedPadding {
                    // Every other block is decoded over an earlier scan's coefficients, which
                    // the decoders must leave where the block has none (damaged files can have
                    // several sequential scans of a component).
                    let earlier = (0..<64).map { _ in blocks % 2 == 0 ? 0 : Int16(random.int(in: -9...9)) }
                    let reference = referenceBlock(&expected, dc: dc, ac: ac, over: earlier)
                    let decoded = fastBlock(&actual, dc: dc, ac: ac, over: earlier)
                    XCTAssertEqual(decoded, reference?.block, "block \(blocks), seed \(seed)")
                    guard let reference, decoded == reference.block else { return }
                    blocks += 1
                    if reference.lastPosition == 63 { endingAt63 += 1 }
                }
            }
        }
        // The data must have reached the cases the pairs guard against.
        XCTAssertGreaterThan(blocks, 10_000)
        XCTAssertGreaterThan(endingAt63, 100)
    }
}

import ImageStoreTestSupport
import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

/// The CRC-32 lane checks every range whatever share of it a hot loop folded, and reports the
/// first range that does not match.
final class CRC32LaneTests: XCTestCase {
    func test_update_inPieces_and_fold8_matchTheWholeChecksum() {
        var random = SeededGenerator(seed: 21)
        let bytes = (0..<4_000).map { _ in UInt8(truncatingIfNeeded: random.next()) }
        bytes.withUnsafeBytes { all in
            for split in [0, 1, 8, 15, 16, 1_000, 2_047, 3_999, 4_000] {
                let first = CRC32.update(0xFFFF_FFFF, with: UnsafeRawBufferPointer(rebasing: all[..<split]))
                let both = CRC32.update(first, with: UnsafeRawBufferPointer(rebasing: all[split...]))
                XCTAssertEqual(~both, CRC32.checksum(all), "split at \(split)")
            }
            var register: UInt32 = 0xFFFF_FFFF
            for offset in stride(from: 0, to: 4_000, by: 8) {
                register = CRC32.fold8(register, all.baseAddress! + offset, table: CRC32.tables.pointer)
            }
            XCTAssertEqual(~register, CRC32.checksum(all))
        }
    }

    func test_rangesOfEveryShortLength_match_howeverFarTheLaneAdvanced() {
        // Given: ranges of 0 to 40 bytes and a few long ones, each followed by its CRC-32
        let lengths = Array(0...40) + [1_000, 4_099, 17]
        let layout = Layout(lengths: lengths, seed: 1)
        layout.withRanges { ranges in
            for advances in [0, 1, 2, 7, 100, 500, 1_000, 10_000] {
                // When
                var lane = CRC32Lane(ranges: ranges)
                for _ in 0..<advances { lane.advance() }
                // Then
                XCTAssertNil(lane.finish(), "after \(advances) advances")
            }
        }
    }

    func test_aBadRange_isReportedWithItsValues_andTheFirstOfSeveralWins() {
        let lengths = [5, 8, 9, 0, 64, 3, 200, 16]
        for bad in lengths.indices {
            // Given: range `bad` has a wrong stored CRC, and so has the last one
            var layout = Layout(lengths: lengths, seed: 7)
            let computed = layout.storedCRC(bad)
            layout.setStoredCRC(bad, computed ^ 0x0100_0000)
            if bad < lengths.count - 1 { layout.setStoredCRC(lengths.count - 1, 0) }
            layout.withRanges { ranges in
                for advances in [0, 3, 30, 1_000] {
                    // When
                    var lane = CRC32Lane(ranges: ranges)
                    for _ in 0..<advances { lane.advance() }
                    // Then
                    XCTAssertEqual(
                        lane.finish(),
                        CRC32Lane.Mismatch(rangeIndex: bad, declared: computed ^ 0x0100_0000, computed: computed),
                        "range \(bad), \(advances) advances")
                }
            }
        }
    }

    func test_aLaneWithoutRanges_findsNothing() {
        var lane = CRC32Lane()
        for _ in 0..<10 { lane.advance() }
        XCTAssertNil(lane.finish())
    }

    /// Random ranges laid out one after another in one buffer, each followed by its CRC-32,
    /// big-endian, with a few unrelated bytes between them.
    private struct Layout {
        private(set) var bytes: [UInt8] = []
        private var starts: [Int] = []
        private let lengths: [Int]

        init(lengths: [Int], seed: UInt64) {
            self.lengths = lengths
            var random = SeededGenerator(seed: seed)
            for length in lengths {
                let range = (0..<length).map { _ in UInt8(truncatingIfNeeded: random.next()) }
                starts.append(bytes.count)
                bytes += range + PNGFile.bigEndian(range.withUnsafeBytes { CRC32.checksum($0) }) + [0xAA, 0x55, 0x0F]
            }
        }

        func storedCRC(_ index: Int) -> UInt32 {
            let end = starts[index] + lengths[index]
            return bytes[end..<(end + 4)].reduce(0) { $0 << 8 | UInt32($1) }
        }

        mutating func setStoredCRC(_ index: Int, _ value: UInt32) {
            let end = starts[index] + lengths[index]
            bytes.replaceSubrange(end..<(end + 4), with: PNGFile.bigEndian(value))
        }

        func withRanges(_ body: ([UnsafeRawBufferPointer]) -> Void) {
            bytes.withUnsafeBytes { buffer in
                body(zip(starts, lengths).map { UnsafeRawBufferPointer(rebasing: buffer[$0..<($0 + $1)]) })
            }
        }
    }
}

import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

/// The progression state block smoothing reads: each component's point transform per position,
/// and the state before its latest scan.
final class JPEGCoefficientBitsTests: XCTestCase {
    /// A 4:2:0 progressive frame (components 1, 2, 3).
    private func makeFrame() throws -> JPEGFrame {
        let sof: [UInt8] = [8, 0, 16, 0, 16, 3, 1, 0x22, 0, 2, 0x11, 1, 3, 0x11, 1]
        return try sof.withUnsafeBytes { try JPEGFrame(segment: $0, marker: 0xC2, offset: 0) }
    }

    /// A scan of `components` (ids) over `start...end` with point transforms `high`, `low`.
    private func makeScan(_ components: [UInt8], _ start: UInt8, _ end: UInt8, _ high: UInt8, _ low: UInt8)
        throws -> JPEGScanHeader
    {
        let frame = try makeFrame()
        let sos: [UInt8] =
            [UInt8(components.count)] + components.flatMap { [$0, 0x00] } + [start, end, high << 4 | low]
        return try sos.withUnsafeBytes { try JPEGScanHeader(segment: $0, frame: frame, offset: 0) }
    }

    func test_bits_recordThePointTransformOfTheLatestScan_andTheStateBeforeIt() throws {
        // Given
        var bits = JPEGCoefficientBits(componentCount: 3)
        // When: DC of all at Al 1, then luma AC 1...5 at Al 2, then luma AC 1...63 refined to Al 1.
        bits.startScan(try makeScan([1, 2, 3], 0, 0, 0, 1), number: 1)
        bits.startScan(try makeScan([1], 1, 5, 0, 2), number: 2)
        bits.startScan(try makeScan([1], 1, 63, 2, 1), number: 3)
        // Then
        XCTAssertEqual((0..<10).map { bits.current(component: 0, position: $0) }, [1, 1, 1, 1, 1, 1, 1, 1, 1, 1])
        XCTAssertEqual((1..<10).map { bits.previous(component: 0, position: $0) }, [2, 2, 2, 2, 2, -1, -1, -1, -1])
        XCTAssertEqual((0..<10).map { bits.current(component: 1, position: $0) }, [1] + Array(repeating: -1, count: 9))
        // The first scan of the file leaves 0 as the earlier state, as libjpeg does.
        XCTAssertEqual((1..<10).map { bits.previous(component: 2, position: $0) }, Array(repeating: 0, count: 9))
    }

    func test_bits_ofAScanBeyondPositionNine_copyTheStateBeforeIt() throws {
        // Given
        var bits = JPEGCoefficientBits(componentCount: 3)
        bits.startScan(try makeScan([1, 2, 3], 0, 0, 0, 0), number: 1)
        bits.startScan(try makeScan([1], 1, 9, 0, 1), number: 2)
        // When
        bits.startScan(try makeScan([1], 10, 63, 0, 0), number: 3)
        // Then
        XCTAssertEqual((1..<10).map { bits.current(component: 0, position: $0) }, Array(repeating: 1, count: 9))
        XCTAssertEqual((1..<10).map { bits.previous(component: 0, position: $0) }, Array(repeating: 1, count: 9))
    }

    func test_scansOutOfSequence_areInconsistent_asLibjpegWarns() throws {
        // Given
        var bits = JPEGCoefficientBits(componentCount: 3)
        // When, Then: luma AC before its DC; chroma DC; a refinement of Al 2 where Al 1 was sent.
        XCTAssertFalse(bits.startScan(try makeScan([1], 1, 5, 0, 1), number: 1))
        XCTAssertTrue(bits.startScan(try makeScan([2, 3], 0, 0, 0, 1), number: 2))
        XCTAssertFalse(bits.startScan(try makeScan([2], 0, 0, 2, 1), number: 3))
        XCTAssertTrue(bits.startScan(try makeScan([3], 0, 0, 1, 0), number: 4))
        // Positions past 9 are checked too.
        XCTAssertTrue(bits.startScan(try makeScan([2], 10, 63, 0, 2), number: 5))
        XCTAssertFalse(bits.startScan(try makeScan([2], 30, 40, 1, 0), number: 6))
    }
}

import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

final class JPEGBitReaderTests: XCTestCase {
    private func withReader<T>(_ bytes: [UInt8], _ body: (inout JPEGBitReader) -> T) -> T {
        bytes.withUnsafeBufferPointer { buffer in
            var reader = JPEGBitReader(bytes: buffer.baseAddress!, count: buffer.count, position: 0)
            return body(&reader)
        }
    }

    func test_stuffedZeroAfterFF_isRemoved() {
        let values = withReader([0xFF, 0x00, 0x12]) { reader in [reader.bits(8), reader.bits(8)] }
        XCTAssertEqual(values, [0xFF, 0x12])
    }

    func test_reading_stopsAtAMarker_andCountsPadding() {
        withReader([0xAB, 0xFF, 0xD9, 0x55]) { reader in
            XCTAssertEqual(reader.bits(8), 0xAB)
            XCTAssertFalse(reader.consumedPadding)
            // The marker is not data: zeros follow, and reading them is noticed.
            XCTAssertEqual(reader.bits(8), 0)
            XCTAssertTrue(reader.consumedPadding)
            XCTAssertEqual(reader.resumePosition, 1)
        }
    }

    func test_fastRefill_matchesBytewiseReading() {
        let bytes: [UInt8] = (0..<64).map { UInt8(truncatingIfNeeded: $0 &* 37 &+ 11) }.map { $0 == 0xFF ? 0xFE : $0 }
        let values = withReader(bytes) { reader in (0..<64).map { _ in reader.bits(8) } }
        XCTAssertEqual(values, bytes.map(Int.init))
    }

    func test_signedValue_extendsAsT81Says() {
        // 3-bit values 000 → -7, 011 → -4, 100 → 4, 111 → 7
        let values = withReader([0b0000_1110, 0b0111_0000]) { reader in (0..<4).map { _ in reader.signedValue(3) } }
        XCTAssertEqual(values, [-7, -4, 4, 7])
    }

    func test_restart_findsTheExpectedMarker_andRejectsAnother() {
        withReader([0x12, 0xFF, 0xD0, 0x34, 0xFF, 0xD3]) { reader in
            XCTAssertEqual(reader.bits(4), 1)
            XCTAssertTrue(reader.restart(expected: 0).ok)
            XCTAssertEqual(reader.bits(8), 0x34)
            let second = reader.restart(expected: 1)
            XCTAssertFalse(second.ok)
            XCTAssertEqual(second.found, 0xD3)
        }
    }
}

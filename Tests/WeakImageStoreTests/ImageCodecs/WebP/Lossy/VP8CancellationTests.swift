import XCTest

@testable import ImageCodecs

/// A load that nobody waits for any more stops its lossy decode at the next macroblock row,
/// rather than decoding the rest of the image for nobody.
final class VP8CancellationTests: XCTestCase {
    func test_stopRequestedDuringFirstRow_stopsBeforeTheSecondMacroblockRow() throws {
        // Given: 63 macroblock rows, and a load whose waiter leaves while the first row is out
        let data = try VP8Suite.vp8Data("size-1x1000.webp")
        let cancellation = DecodeCancellation()
        var rowsReceived = 0

        // When
        let result = DecodeCancellation.current.withValue(cancellation) {
            data.withUnsafeBytes { bytes in
                Result(typedCatching: { () throws(VP8Error) in
                    try VP8Decoder.decode(bytes) { _, _ in
                        rowsReceived += 1
                        cancellation.requestStop()
                    }
                })
            }
        }

        // Then
        guard case .failure(let error) = result else { return XCTFail("the decode was not stopped") }
        XCTAssertEqual(error, .cancelled(row: 1))
        XCTAssertLessThan(rowsReceived, 16)
        XCTAssertTrue(cancellation.hasStopped)
    }

    func test_noCancellation_decodesEveryRow() throws {
        // Given
        let data = try VP8Suite.vp8Data("size-1x1000.webp")
        var rowsReceived = 0

        // When
        try data.withUnsafeBytes { bytes in
            try VP8Decoder.decode(bytes) { _, _ in rowsReceived += 1 }
        }

        // Then
        XCTAssertEqual(rowsReceived, 1000)
    }
}

import XCTest

@testable import ImageCodecs

/// Damage no suite file covers: every truncation of a small frame and random byte changes. The
/// decoder must end each one with pixels or a typed error, never a crash or a hang.
final class VP8DamagedInputTests: XCTestCase {
    /// Decodes `data`; returns the pixel count or the error.
    private func outcome(_ data: [UInt8]) -> Result<Int, VP8Error> {
        data.withUnsafeBytes { bytes in
            do throws(VP8Error) {
                return .success(try VP8Decoder.decodeRGBA(bytes, maximumPixelCount: 1 << 20).pixels.count)
            } catch {
                return .failure(error)
            }
        }
    }

    func test_everyTruncation_endsInPixelsOrATypedError() throws {
        // Given
        let data = try VP8Suite.vp8Data("size-17x33.webp")
        var failures = 0

        // When
        for length in 0..<data.count {
            if case .failure = outcome(Array(data[..<length])) { failures += 1 }
        }

        // Then: all but the last few bytes (which the bool decoder may not need) are required.
        XCTAssertGreaterThan(failures, data.count - 8)
    }

    func test_randomByteChanges_endInPixelsOrATypedError() throws {
        var state: UInt64 = 0x9E37_79B9_7F4A_7C15
        func next() -> Int {
            state ^= state << 13
            state ^= state >> 7
            state ^= state << 17
            return Int(truncatingIfNeeded: state >> 1)
        }
        for file in ["size-65x65.webp", "size-33x17-simple.webp", "partitions4-tall.webp"] {
            let original = try VP8Suite.vp8Data(file)
            for _ in 0..<60 {
                // Given
                var data = original
                for _ in 0..<(1 + next() % 6) { data[next() % data.count] = UInt8(truncatingIfNeeded: next()) }

                // When
                let result = outcome(data)

                // Then
                if case .success(let count) = result { XCTAssertGreaterThan(count, 0, file) }
            }
        }
    }
}

import ImageStoreTestSupport
import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

final class JPEGHuffmanFastPathEmulatorTests: XCTestCase {
    /// The plain definition: the first FF not followed by 00 starts either a marker (not needed)
    /// or FF FF... then 00 (needed).
    private func expected(_ bytes: [UInt8], from start: Int) -> Bool {
        var index = start
        while index + 1 < bytes.count {
            if bytes[index] != 0xFF || bytes[index + 1] == 0 {
                index += bytes[index] == 0xFF ? 2 : 1
                continue
            }
            guard bytes[index + 1] == 0xFF else { return false }
            var next = index + 1
            while next < bytes.count && bytes[next] == 0xFF { next += 1 }
            return next < bytes.count && bytes[next] == 0
        }
        return false
    }

    func test_isNeeded_findsFFFFThen00_wherever_itStands() {
        // Given: random data with stuffed FF 00, markers and FF runs ending in 00, at every
        // offset of the 16-byte steps and in the bytes after the last whole step
        var random = SeededGenerator(seed: 11)
        var needed = 0
        for trial in 0..<4000 {
            let length = random.int(in: 1...60)
            var bytes = (0..<length).map { _ in UInt8(random.int(in: 0...0xFE)) }
            for _ in 0..<random.int(in: 0...3) {
                let at = random.int(in: 0...(length - 1))
                switch random.int(in: 0...3) {
                case 0: bytes.replaceSubrange(at..<min(at + 2, bytes.count), with: [0xFF, 0x00])
                case 1: bytes.replaceSubrange(at..<min(at + 2, bytes.count), with: [0xFF, 0xD9])
                case 2: bytes.replaceSubrange(at..<min(at + 3, bytes.count), with: [0xFF, 0xFF, 0x00])
                default: bytes.replaceSubrange(at..<min(at + 1, bytes.count), with: [0xFF])
                }
            }
            let start = random.int(in: 0...min(3, bytes.count - 1))
            // When
            let found = bytes.withUnsafeBufferPointer {
                JPEGHuffmanFastPathEmulator.isNeeded(bytes: $0.baseAddress!, count: $0.count, from: start)
            }
            // Then
            XCTAssertEqual(found, expected(bytes, from: start), "trial \(trial): \(bytes) from \(start)")
            if found { needed += 1 }
        }
        XCTAssertGreaterThan(needed, 100)
    }
}

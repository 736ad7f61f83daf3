import Foundation
import ImageStoreTestSupport
import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

/// The streaming thumbnail path never holds a full-size image: the process's peak resident size
/// (Linux `VmHWM`, reset through `/proc/self/clear_refs`) rises by far less than the full-size
/// bitmap while it decodes a 2500 × 2500 gray file (6.25 MB decoded), and by more than that
/// during a full decode of the same file, which shows the measurement sees such a buffer.
final class StreamingMemoryTests: XCTestCase {
    func test_streamingThumbnail_neverAllocatesAFullSizeBuffer() throws {
        #if os(Linux)
        // Given: stored deflate blocks and unfiltered rows keep the debug-build decode quick; the
        // file is split into 4 KiB IDAT chunks like an encoder's
        let side = 2500
        var filtered = [UInt8](repeating: 0, count: side * (side + 1))
        for y in 0..<side {
            for x in 0..<side { filtered[y * (side + 1) + 1 + x] = UInt8(truncatingIfNeeded: x ^ y) }
        }
        let stream = ZlibStream.stored(filtered)
        var file = PNGChunkReader.signature
        file += PNGFile.chunk("IHDR", PNGFile.header(width: 2500, height: 2500, bitDepth: 8, colorType: 0))
        for start in stride(from: 0, to: stream.count, by: 4096) {
            file += PNGFile.chunk("IDAT", Array(stream[start..<min(start + 4096, stream.count)]))
        }
        file += PNGFile.chunk("IEND")
        let data = Data(file)
        filtered = []
        let decoder = PNGDecoder()
        _ = try decoder.decode(PNGTestFiles.suiteFile("basn0g08.png"), scale: 1, maxPixelSize: 7)  // page in the code
        // When
        let streamingRise = try XCTUnwrap(
            PeakResidentSize.rise { _ = try decoder.decode(data, scale: 1, maxPixelSize: 64) })
        let fullRise = try XCTUnwrap(PeakResidentSize.rise { _ = try decoder.decode(data, scale: 1) })
        // Then
        XCTAssertLessThan(streamingRise, 1 << 20, "streaming peak rise \(streamingRise) bytes")
        XCTAssertGreaterThan(fullRise, side * side, "the measurement must see a full decode's \(side * side) bytes")
        #else
        throw XCTSkip("peak resident size is read from /proc on Linux only")
        #endif
    }
}

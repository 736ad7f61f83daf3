import Foundation
import ImageStoreTestSupport
import XCTest

@testable import WeakImageStore

#if canImport(Glibc)
import Glibc
#endif

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
        let streamingRise = try XCTUnwrap(Self.peakRise { _ = try decoder.decode(data, scale: 1, maxPixelSize: 64) })
        let fullRise = try XCTUnwrap(Self.peakRise { _ = try decoder.decode(data, scale: 1) })
        // Then
        XCTAssertLessThan(streamingRise, 1 << 20, "streaming peak rise \(streamingRise) bytes")
        XCTAssertGreaterThan(fullRise, side * side, "the measurement must see a full decode's \(side * side) bytes")
        #else
        throw XCTSkip("peak resident size is read from /proc on Linux only")
        #endif
    }

    #if os(Linux)
    /// How far the peak resident size rises above the current one while `body` runs, or `nil`
    /// where the peak cannot be reset.
    private static func peakRise(_ body: () throws -> Void) throws -> Int? {
        // Give freed memory back first, so reused resident pages cannot hide an allocation
        // (glibc declares malloc_trim in malloc.h, which Glibc does not import).
        typealias MallocTrim = @convention(c) (Int) -> Int32
        if let process = dlopen(nil, RTLD_NOW), let symbol = dlsym(process, "malloc_trim") {
            _ = unsafeBitCast(symbol, to: MallocTrim.self)(0)
        }
        let reset = open("/proc/self/clear_refs", O_WRONLY)
        guard reset >= 0 else { return nil }
        let written = write(reset, "5", 1)
        close(reset)
        guard written == 1, let before = status("VmRSS") else { return nil }
        try body()
        return status("VmHWM").map { $0 - before }
    }

    /// A `/proc/self/status` field in bytes.
    private static func status(_ field: String) -> Int? {
        guard let text = try? String(contentsOfFile: "/proc/self/status", encoding: .utf8) else { return nil }
        let line = text.split(separator: "\n").first { $0.hasPrefix(field + ":") }
        return line.flatMap { Int($0.dropFirst(field.count + 1).filter(\.isNumber)) }.map { $0 * 1024 }
    }
    #endif
}

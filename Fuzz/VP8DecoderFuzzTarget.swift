// libFuzzer entry point for the VP8 (lossy WebP) decoder, compiled together with the codecs'
// sources by `Scripts/fuzz.sh vp8` (not part of the package), which seeds it
// with the `VP8 ` payloads of Tests/WeakImageStoreTests/Fixtures/webpsuite-lossy. The input is the
// payload of a `VP8 ` chunk. Every input must either be refused with a VP8Error or give rows
// 0..<height in order, each 4 × width bytes of alpha 255, the same as the one-buffer decode.
// Crashes, hangs, disagreements and oversized allocations are findings.

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzVP8Decoder(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> Int32 {
    let chunk = UnsafeRawBufferPointer(start: bytes, count: count)
    let size: (width: Int, height: Int)
    do throws(VP8Error) {
        size = try VP8Decoder.header(of: chunk)
    } catch {
        _ = error.description
        return 0
    }
    var rows: [UInt8] = []
    var next = 0
    do throws(VP8Error) {
        try VP8Decoder.decode(chunk, maximumPixelCount: 1 << 20) { y, row in
            guard y == next, row.count == 4 * size.width else { fatalError("row \(y) out of order or mis-sized") }
            guard stride(from: 3, to: row.count, by: 4).allSatisfy({ row[$0] == 255 }) else {
                fatalError("alpha below 255 in row \(y)")
            }
            rows.append(contentsOf: row)
            next += 1
        }
    } catch {
        _ = error.description
        return 0
    }
    guard next == size.height else { fatalError("\(next) rows for a height of \(size.height)") }
    do throws(VP8Error) {
        let image = try VP8Decoder.decodeRGBA(chunk, maximumPixelCount: 1 << 20)
        guard image.pixels == rows else { fatalError("the one-buffer decode differs from the rows") }
    } catch {
        fatalError("the one-buffer decode threw where the row decode did not: \(error)")
    }
    return 0
}

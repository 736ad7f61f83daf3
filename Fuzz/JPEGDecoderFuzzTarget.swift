// libFuzzer entry point for the JPEG decoder, compiled together with the library's sources by
// Scripts/fuzz.sh (not part of the package). Every input is decoded at full size and at a DCT
// scale chosen by its last byte; each must either give a consistent bitmap or throw a JPEGError
// (the decoder's typed throws guarantee the type). Crashes, hangs and oversized allocations are
// findings.
import Foundation

/// A 16 Mi-pixel limit keeps each input fast while still exercising the limit checks.
private let decoder = JPEGDecoder(maximumPixelCount: 16 * 1024 * 1024, maximumDimension: 16_384)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzJPEGDecoder(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> Int32 {
    let data = Data(bytes: bytes, count: count)
    let denominators = [1, count > 0 ? [2, 4, 8][Int(bytes[count - 1]) % 3] : 8]
    for denominator in denominators {
        do throws(JPEGError) {
            let bitmap = try decoder.decodeScaled(data, scale: 1, scaleDenominator: denominator).bitmap
            guard bitmap.pixels.count == bitmap.width * bitmap.height * bitmap.format.bytesPerPixel,
                bitmap.width > 0, bitmap.height > 0
            else {
                fatalError(
                    "inconsistent bitmap: \(bitmap.width)x\(bitmap.height) \(bitmap.format), \(bitmap.pixels.count) bytes"
                )
            }
        } catch {
            // A typed JPEGError is the expected outcome for hostile input.
            _ = error.description
        }
    }
    return 0
}

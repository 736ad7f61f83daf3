// libFuzzer entry point for the PNG decoder, compiled together with the library's sources by
// Scripts/fuzz.sh (not part of the package). Every input must either decode into a consistent
// bitmap or throw a PNGError (the decoder's typed throws guarantee the type); crashes, hangs and
// oversized allocations are findings.
import Foundation

/// A 16 Mi-pixel limit keeps each input fast while still exercising the limit checks.
private let decoder = PNGDecoder(maximumPixelCount: 16 * 1024 * 1024, maximumDimension: 16_384)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPNGDecoder(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> Int32 {
    let data = Data(bytes: bytes, count: count)
    do throws(PNGError) {
        let bitmap = try decoder.decode(data, scale: 1)
        guard bitmap.pixels.count == bitmap.width * bitmap.height * bitmap.format.bytesPerPixel,
            bitmap.width > 0, bitmap.height > 0
        else {
            fatalError(
                "inconsistent bitmap: \(bitmap.width)x\(bitmap.height) \(bitmap.format), \(bitmap.pixels.count) bytes")
        }
        _ = bitmap.rgba8()
    } catch {
        // A typed PNGError is the expected outcome for hostile input.
        _ = error.description
    }
    return 0
}

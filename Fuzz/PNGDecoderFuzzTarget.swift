// libFuzzer entry point for the PNG decoder, compiled together with the library's sources by
// Scripts/fuzz.sh (not part of the package). Every input must either decode into a consistent
// bitmap or throw a PNGError (the decoder's typed throws guarantee the type), and its streamed
// 16-pixel thumbnail must agree with the full decode: the same error, or the full decode's
// bitmap averaged. Crashes, hangs, disagreements and oversized allocations are findings.
import Foundation

/// A 16 Mi-pixel limit keeps each input fast while still exercising the limit checks.
private let decoder = PNGDecoder(maximumPixelCount: 16 * 1024 * 1024, maximumDimension: 16_384)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPNGDecoder(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> Int32 {
    let data = Data(bytes: bytes, count: count)
    let full: Result<Bitmap, PNGError>
    do throws(PNGError) {
        let bitmap = try decoder.decode(data, scale: 1)
        guard bitmap.pixels.count == bitmap.width * bitmap.height * bitmap.format.bytesPerPixel,
            bitmap.width > 0, bitmap.height > 0
        else {
            fatalError(
                "inconsistent bitmap: \(bitmap.width)x\(bitmap.height) \(bitmap.format), \(bitmap.pixels.count) bytes")
        }
        _ = bitmap.rgba8()
        full = .success(bitmap)
    } catch {
        // A typed PNGError is the expected outcome for hostile input.
        _ = error.description
        full = .failure(error)
    }
    let thumbnail = Result { () throws(PNGError) in try decoder.decode(data, scale: 1, maxPixelSize: 16) }
    switch (full, thumbnail) {
    case (.success(let bitmap), .success(let small)):
        guard small.pixels == bitmap.downsampled(maxPixelSize: 16).pixels else {
            fatalError("the thumbnail differs from the full decode averaged")
        }
    case (.failure(let fullError), .failure(let thumbnailError)):
        guard fullError == thumbnailError else {
            fatalError("the thumbnail fails with \(thumbnailError), the full decode with \(fullError)")
        }
    case (.success, .failure(let error)):
        fatalError("only the thumbnail fails: \(error)")
    case (.failure(let error), .success):
        fatalError("only the full decode fails: \(error)")
    }
    return 0
}

// libFuzzer entry point for the WebP decoder, compiled together with the codecs' sources by
// Scripts/fuzz.sh (not part of the package). Every input must either be refused with a WebPError
// or decode consistently: the header agrees with the image, the peak is known, a thumbnail is the
// full image averaged, and strict decoding agrees with lenient. Crashes, hangs, disagreements and
// oversized allocations are findings.
import Foundation

/// Small limits keep each input fast while still exercising the checks.
private let decoder = WebPDecoder(
    maximumPixelCount: 1 << 20, maximumDimension: 4096, maximumFrameCount: 64, maximumDecodingBytes: 64 << 20)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWebPDecoder(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> Int32 {
    let data = Data(bytes: bytes, count: count)
    let header = decoder.header(of: data)
    guard (header == nil) == (decoder.decodingPeakBytes(of: data, options: DecodeOptions()) == nil) else {
        fatalError("the header and the peak disagree on whether the file is readable")
    }
    let full: DecodeResult<Bitmap>
    do throws(WebPError) {
        full = try decoder.decode(data, options: DecodeOptions())
    } catch {
        _ = error.description
        do throws(WebPError) {
            _ = try decoder.decode(data, options: DecodeOptions(strictness: .strict))
            fatalError("strict decoding accepted what lenient decoding refused")
        } catch let strictError {
            guard strictError == error else { fatalError("strict and lenient decoding refuse differently") }
        }
        return 0
    }
    guard let header, header.width == full.image.width, header.height == full.image.height,
        full.image.pixels.count == header.width * header.height * 4, !full.isDamaged
    else { fatalError("the header disagrees with the image") }
    do {
        let small = try decoder.decode(data, options: DecodeOptions(maxPixelSize: 7, header: header))
        guard small.image.pixels == full.image.downsampled(maxPixelSize: 7).pixels else {
            fatalError("the thumbnail differs from the full image averaged")
        }
        let strict = try decoder.decode(data, options: DecodeOptions(strictness: .strict))
        guard strict.image.pixels == full.image.pixels else { fatalError("strict decoding differs") }
    } catch {
        fatalError("a file that decodes failed at another size: \(error)")
    }
    return 0
}

// libFuzzer entry point comparing WebPDecoder with libwebp (Scripts/libwebp-shim, linked by
// Scripts/fuzz.sh). For every input: if libwebp decodes a lossless still, WebPDecoder must give
// the same RGBA bytes; if libwebp refuses it, WebPDecoder must refuse it too. Lossy stills (no
// lossy decoder in this build), animations (libwebp's still API refuses them) and RIFF-less
// bitstreams (libwebp accepts them, RFC 9649 does not) are skipped.
// A disagreement is a crash.
import Foundation

private let decoder = WebPDecoder(
    maximumPixelCount: 1 << 20, maximumDimension: 4096, maximumFrameCount: 64, maximumDecodingBytes: 64 << 20)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzWebPAgainstLibwebp(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> Int32 {
    let data = Data(bytes: bytes, count: count)
    var width: Int32 = 0
    var height: Int32 = 0
    var isLossy: Int32 = 0
    let reference = webpshim_decode_rgba(bytes, count, 1 << 20, &width, &height, &isLossy)
    defer { if let reference { webpshim_free(reference) } }
    let ours: Result<DecodeResult<Bitmap>, WebPError> = Result { () throws(WebPError) in
        try decoder.decode(data, options: DecodeOptions())
    }
    if isLossy != 0 || Int(width) * Int(height) > 1 << 20 { return 0 }
    // libwebp also takes a bare VP8/VP8L chunk or bitstream without the RIFF header; RFC 9649
    // files start with RIFF, and WebPDecoder reads only those.
    guard count >= 12, data.starts(with: Array("RIFF".utf8)), data.dropFirst(8).starts(with: Array("WEBP".utf8))
    else { return 0 }
    // Animated: libwebp's still decoder refuses animations, WebPDecoder shows the first frame.
    if case .webp(let container) = decoder.header(of: data)?.parsed, container.animation != nil { return 0 }
    switch (reference, ours) {
    case (nil, .failure):
        return 0
    case (nil, .success(let result)):
        fatalError("libwebp refuses a file WebPDecoder decodes (\(result.image.width) × \(result.image.height))")
    case (.some, .failure(let error)):
        // Our limits are smaller than libwebp's.
        switch error {
        case .imageTooLarge, .decodeTooLarge, .tooManyFrames: return 0
        default: fatalError("WebPDecoder refuses a file libwebp decodes: \(error)")
        }
    case (.some(let pixels), .success(let result)):
        guard Int(width) == result.image.width, Int(height) == result.image.height else {
            fatalError(
                "sizes differ: libwebp \(width) × \(height), ours \(result.image.width) × \(result.image.height)")
        }
        let theirs = UnsafeBufferPointer(start: pixels, count: Int(width) * Int(height) * 4)
        guard result.image.pixels.elementsEqual(theirs) else { fatalError("pixels differ from libwebp's") }
        return 0
    }
}

// libFuzzer entry point for the GIF decoder, compiled together with the codecs' sources by
// Scripts/fuzz.sh (not part of the package). Every input must either be refused with a GIFError
// or give a consistent animation: the header agrees with the animation's description, every
// frame is canvas-sized (and thumbnail-sized under maxPixelSize, equal to the full frame
// averaged), the still decode is the first frame, and a strict cursor throws exactly where a
// lenient one reports damage. Crashes, hangs, disagreements and oversized allocations are findings.
import Foundation

/// Small limits keep each input fast while still exercising the checks.
private let decoder = GIFDecoder(maximumPixelCount: 1 << 20, maximumDimension: 4096, maximumFrameCount: 64)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGIFDecoder(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> Int32 {
    let data = Data(bytes: bytes, count: count)
    let info: AnimationInfo
    do throws(GIFError) {
        info = try decoder.animationInfo(of: data)
    } catch {
        _ = error.description
        guard decoder.header(of: data) == nil else { fatalError("a header for a refused file: \(error)") }
        return 0
    }
    guard let header = decoder.header(of: data), header.frameCount == info.frameCount,
        header.width == info.width, header.height == info.height
    else { fatalError("the header disagrees with the animation") }

    do {
        var lenient = try decoder.frameCursor(for: data, options: DecodeOptions())
        var thumbnails = try decoder.frameCursor(for: data, options: DecodeOptions(maxPixelSize: 7))
        var strict = try decoder.frameCursor(for: data, options: DecodeOptions(strictness: .strict))
        var strictFailed = false
        let still = try decoder.decode(data, options: DecodeOptions())
        while !lenient.isFinished {
            let frame = try lenient.nextFrame()
            guard frame.image.width == info.width, frame.image.height == info.height,
                frame.image.pixels.count == info.width * info.height * 4
            else { fatalError("a frame is not canvas-sized") }
            if lenient.nextFrameIndex == 1 {
                guard still.image.pixels == frame.image.pixels, still.isDamaged == frame.isDamaged else {
                    fatalError("the still decode differs from the first frame")
                }
            }
            let small = try thumbnails.nextFrame()
            guard small.image.pixels == frame.image.downsampled(maxPixelSize: 7).pixels else {
                fatalError("a thumbnail frame differs from the frame averaged")
            }
            if !strictFailed {
                do {
                    _ = try strict.nextFrame()
                    guard !frame.isDamaged else { fatalError("strict decoding accepted a damaged frame") }
                } catch {
                    guard frame.isDamaged else { fatalError("strict decoding threw on a sound frame: \(error)") }
                    strictFailed = true
                }
            }
        }
    } catch {
        fatalError("a file whose description was read failed to decode leniently: \(error)")
    }
    return 0
}

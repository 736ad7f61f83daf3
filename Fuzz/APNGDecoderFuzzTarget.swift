// libFuzzer entry point for APNG decoding, compiled together with the codecs' sources by
// Scripts/fuzz.sh (not part of the package). Every input must either give a cursor whose frames
// are consistent, or throw a PNGError (typed throws guarantee the type). A strict cursor that
// decodes every frame must agree with a lenient one, which then reports no damage, and a copy of
// the cursor taken after the first frame must resume identically. Crashes, hangs, disagreements
// and oversized allocations are findings.
//
// Inputs of even length get every chunk's CRC-32 recomputed first, so that mutations reach the
// animation chunks' checks instead of stopping at a CRC mismatch; odd lengths keep theirs.
import Foundation

/// Small limits keep each input fast while still exercising the limit checks.
private let decoder: PNGDecoder = {
    var decoder = PNGDecoder(maximumPixelCount: 1 << 20, maximumDimension: 4096)
    decoder.maximumFrameCount = 64
    return decoder
}()

/// Rewrites the CRC-32 of each whole chunk after the signature.
private func repairingChecksums(_ data: Data) -> Data {
    var bytes = [UInt8](data)
    var offset = 8
    while offset + 12 <= bytes.count {
        let length =
            Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8
            | Int(bytes[offset + 3])
        guard length <= bytes.count - offset - 12 else { break }
        let crc = bytes.withUnsafeBytes {
            CRC32.checksum(UnsafeRawBufferPointer(rebasing: $0[(offset + 4)..<(offset + 8 + length)]))
        }
        let end = offset + 8 + length
        bytes[end] = UInt8(truncatingIfNeeded: crc >> 24)
        bytes[end + 1] = UInt8(truncatingIfNeeded: crc >> 16)
        bytes[end + 2] = UInt8(truncatingIfNeeded: crc >> 8)
        bytes[end + 3] = UInt8(truncatingIfNeeded: crc)
        offset = end + 4
    }
    return Data(bytes)
}

/// Every frame of a cursor: the frames, whether any was damaged, or the error that stopped it.
private func frames(_ cursor: inout AnimationFrameCursor) -> Result<([Bitmap], Bool), BitmapDecoderError> {
    var frames: [Bitmap] = []
    var isDamaged = false
    while !cursor.isFinished {
        do throws(BitmapDecoderError) {
            let result = try cursor.nextFrame()
            let size = cursor.framePixelSize
            guard result.image.width == size.width, result.image.height == size.height,
                result.image.pixels.count == size.width * size.height * 4
            else { fatalError("frame \(frames.count) is not the canvas's size") }
            frames.append(result.image)
            isDamaged = isDamaged || result.isDamaged
        } catch {
            _ = error.description
            return .failure(error)
        }
    }
    return .success((frames, isDamaged))
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzAPNGDecoder(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> Int32 {
    var data = Data(bytes: bytes, count: count)
    if count % 2 == 0 { data = repairingChecksums(data) }
    let lenient: AnimationFrameCursor?
    do throws(PNGError) {
        lenient = try decoder.frameCursor(for: data, options: DecodeOptions())
    } catch {
        _ = error.description
        return 0
    }
    guard var lenient else { return 0 }
    guard lenient.info.frameCount <= decoder.maximumFrameCount else { fatalError("the frame limit was passed") }
    var resumed: AnimationFrameCursor?
    if lenient.info.frameCount > 1, (try? lenient.nextFrame()) != nil { resumed = lenient }
    let all = frames(&lenient)
    if var resumed {
        let again = frames(&resumed)
        switch (all, again) {
        case (.success(let first), .success(let second)):
            guard first.0.map(\.pixels) == second.0.map(\.pixels) else { fatalError("a copied cursor differs") }
        case (.failure(let first), .failure(let second)):
            guard first == second else { fatalError("a copied cursor fails otherwise: \(first), \(second)") }
        default:
            fatalError("a copied cursor ends otherwise")
        }
    }
    guard var strict = try? decoder.frameCursor(for: data, options: DecodeOptions(strictness: .strict)) else {
        return 0
    }
    if case .success(let strictFrames) = frames(&strict) {
        guard !strictFrames.1 else { fatalError("a strict cursor reported damage") }
        guard var fresh = try? decoder.frameCursor(for: data, options: DecodeOptions()),
            case .success(let lenientFrames) = frames(&fresh), !lenientFrames.1,
            lenientFrames.0.map(\.pixels) == strictFrames.0.map(\.pixels)
        else { fatalError("the lenient cursor disagrees with the strict one") }
    }
    return 0
}

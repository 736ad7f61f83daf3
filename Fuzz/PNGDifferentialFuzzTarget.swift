// libFuzzer entry point comparing PNGDecoder with libpng on the same bytes, compiled together with
// the library's sources and linked with the libpng shim (Scripts/libpng-shim) by
// `Scripts/fuzz.sh png-diff` (not part of the package).
//
// "libpng decodes it" means pngshim_decode_default returns pixels: png_read_info, png_read_image
// and png_read_end(png, info) (as libpng's simplified API calls it, so every chunk up to IEND is
// judged) finish without png_error. libpng runs with its default settings: a bad CRC on an
// ancillary chunk drops the chunk with a warning, on a critical chunk it is an error; benign
// errors are warnings; the Adler-32 is not ignored. Its transforms are those of the PngSuite
// reference (palette and low-bit gray expanded, tRNS to alpha, 16-bit samples reduced to their
// high byte, filler alpha 255, no gamma), gray kept gray. Both sides get the same size limit.
//
// A disagreement crashes with a message saying what differs: one side accepts and the other
// rejects, or both accept with different sizes, formats or pixels; libpng's warnings and error
// are printed with it. The one difference kept on purpose is `documentedDifference(ours:input:)`;
// it has regression tests (PNGLeniencyTests). Every input is also decoded streamed (as large
// images are, see PNGRowStream), which must give the same pixels or error as the whole decode.
//
// Inputs of even length have every chunk's CRC recomputed before both decoders see them, so the
// fuzzer can explore what is inside chunks instead of stopping at the CRC; odd lengths are
// decoded as they are, which keeps CRC handling under test.
import Foundation

/// The size limit of both decoders: small enough to keep every input fast.
private let maximumDimension = 4096
private let decoder = PNGDecoder(
    maximumPixelCount: maximumDimension * maximumDimension, maximumDimension: maximumDimension
)
/// The same decoder, streaming every non-interlaced image.
private let streamingDecoder: PNGDecoder = {
    var streaming = decoder
    streaming.wholeInflationLimit = 0
    return streaming
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzPNGAgainstLibpng(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> Int32 {
    var input = [UInt8](UnsafeBufferPointer(start: bytes, count: count))
    if count % 2 == 0 { recomputeChunkChecksums(&input) }
    func decode(with decoder: PNGDecoder) -> Result<Bitmap, PNGError> {
        input.withUnsafeBytes { raw in
            do throws(PNGError) {
                return .success(try decoder.decode(bytes: raw, scale: 1, averagedTo: nil))
            } catch {
                return .failure(error)
            }
        }
    }
    let ours = decode(with: decoder)
    switch (ours, decode(with: streamingDecoder)) {
    case (.success(let bitmap), .success(let streamed)) where streamed.pixels == bitmap.pixels:
        break
    case (.failure(let error), .failure(let streamed)) where streamed == error:
        break
    case (let whole, let streamed):
        fatalError("DISAGREEMENT: the whole decode gives \(whole), the streamed one \(streamed)")
    }
    let libpng = LibpngResult(decoding: input)
    compare(ours, libpng, input: input)
    return 0
}

/// What libpng made of the input.
private struct LibpngResult {
    /// The pixels, width, height and bytes per pixel, or `nil` if libpng rejected the file.
    var image: (pixels: [UInt8], width: Int, height: Int, bytesPerPixel: Int)?
    /// libpng's warnings and error, one a line.
    var log: String

    init(decoding input: [UInt8]) {
        var pixels: UnsafeMutablePointer<UInt8>?
        var width: UInt32 = 0
        var height: UInt32 = 0
        var logText = [CChar](repeating: 0, count: 4096)
        let channels = input.withUnsafeBufferPointer { bytes in
            logText.withUnsafeMutableBufferPointer { text in
                pngshim_decode_default(
                    bytes.baseAddress, bytes.count, UInt32(maximumDimension), &pixels, &width, &height,
                    text.baseAddress, text.count
                )
            }
        }
        log = logText.withUnsafeBufferPointer { String(cString: $0.baseAddress!) }
        if channels > 0, let pixels {
            let count = Int(width) * Int(height) * Int(channels)
            image = ([UInt8](UnsafeBufferPointer(start: pixels, count: count)), Int(width), Int(height), Int(channels))
        } else {
            image = nil
        }
        free(pixels)
    }
}

private func compare(_ ours: Result<Bitmap, PNGError>, _ libpng: LibpngResult, input: [UInt8]) {
    switch (ours, libpng.image) {
    case (.failure, nil):
        return
    case (.failure(let error), .some):
        if documentedDifference(ours: error, input: input) != nil { return }
        fatalError("DISAGREEMENT: libpng decodes it, PNGDecoder rejects it: \(error)\nlibpng said:\n\(libpng.log)")
    case (.success(let bitmap), nil):
        fatalError(
            "DISAGREEMENT: PNGDecoder decodes it (\(bitmap.width)x\(bitmap.height) \(bitmap.format)), libpng rejects it:\n\(libpng.log)"
        )
    case (.success(let bitmap), let image?):
        guard bitmap.width == image.width, bitmap.height == image.height,
            bitmap.format.bytesPerPixel == image.bytesPerPixel
        else {
            fatalError(
                "DISAGREEMENT: PNGDecoder gives \(bitmap.width)x\(bitmap.height) \(bitmap.format), libpng \(image.width)x\(image.height) with \(image.bytesPerPixel) bytes a pixel\nlibpng said:\n\(libpng.log)"
            )
        }
        guard let index = image.pixels.indices.first(where: { bitmap.pixels[$0] != image.pixels[$0] }) else { return }
        let pixel = index / image.bytesPerPixel
        let range = (pixel * image.bytesPerPixel)..<((pixel + 1) * image.bytesPerPixel)
        fatalError(
            "DISAGREEMENT: pixel (\(pixel % image.width), \(pixel / image.width)) is \(Array(bitmap.pixels[range])) in PNGDecoder, \(Array(image.pixels[range])) in libpng (\(bitmap.format))\nlibpng said:\n\(libpng.log)"
        )
    }
}

/// The differences kept on purpose, each with a regression test; `nil` for any other.
///
/// One class only: the zlib stream goes wrong after it has produced every byte the image needs.
/// PNGDecoder then rejects a stream that holds exactly the image and fails (its Adler-32, its
/// data, its end), and a stream with a surplus that is cut short before its end. libpng stops
/// decoding once the rows are complete and looks at the rest only as far as the input it reads
/// next reaches (the rest of the current IDAT chunk, at most 8 KiB of it, or one more chunk, and
/// on only while that yields bytes): whether it notices depends on where the chunk boundaries
/// fall. zlib's own `inflate` (through the shim) says how many bytes the stream yields and how
/// it stops; the difference is allowed only where zlib agrees the stream goes wrong past the
/// image, so a PNGDecoder bug that rejects a good stream still crashes.
///
/// - Returns: Why PNGDecoder may reject a file libpng decodes, or `nil`.
private func documentedDifference(ours: PNGError, input: [UInt8]) -> String? {
    guard case .inflate(let inflateError) = ours else { return nil }
    return input.withUnsafeBytes { raw -> String? in
        guard let contents = try? PNGContents(reading: raw, checkHeader: { _ in }) else { return nil }
        let needed = PNGPass.passes(of: contents.header).reduce(0) { $0 + $1.filteredByteCount }
        var stream: [UInt8] = []
        for segment in contents.imageData { stream.append(contentsOf: segment) }
        var outcome: Int32 = 0
        let produced = stream.withUnsafeBufferPointer { bytes in
            // The limit is far beyond `needed`: a surplus cut short must be seen to run out of input.
            pngshim_zlib_output_before_failure(bytes.baseAddress, bytes.count, needed + (1 << 30), &outcome)
        }
        if produced == needed, outcome != 1 {
            return "the zlib stream fails right after the image's last byte"
        }
        if produced > needed, outcome == 0, inflateError == .truncated {
            return "the zlib stream holds more than the image and is cut short"
        }
        return nil
    }
}

/// Rewrites the CRC of every whole chunk after the signature to match its type and data.
private func recomputeChunkChecksums(_ bytes: inout [UInt8]) {
    var offset = 8
    while bytes.count - offset >= 12 {
        let length = bytes[offset..<(offset + 4)].reduce(0) { $0 << 8 | Int($1) }
        guard length <= bytes.count - offset - 12 else { return }
        let end = offset + 8 + length
        let crc = bytes.withUnsafeBytes { raw in
            CRC32.checksum(UnsafeRawBufferPointer(rebasing: raw[(offset + 4)..<end]))
        }
        bytes[end] = UInt8(truncatingIfNeeded: crc >> 24)
        bytes[end + 1] = UInt8(truncatingIfNeeded: crc >> 16)
        bytes[end + 2] = UInt8(truncatingIfNeeded: crc >> 8)
        bytes[end + 3] = UInt8(truncatingIfNeeded: crc)
        offset = end + 4
    }
}

// libFuzzer entry point comparing GIFDecoder with giflib on the same bytes, compiled together with
// the codecs' sources and linked with the giflib shim (Scripts/giflib-shim) by
// `Scripts/fuzz.sh gif-diff` (not part of the package).
//
// giflib's DGifSlurp is all or nothing: it rejects a file cut short, damaged LZW data or an
// unknown block. So the comparison runs one way: when giflib reads a file that GIFDecoder's walk
// accepts, both must give the same logical screen, the same images (rectangle, interlacing, the
// graphic control extension's delay, disposal and transparent index) and, image by image, the
// same palette indices, with no damage reported. Files GIFDecoder refuses are not given to giflib
// (it reads any "GIF" signature and has no size limits). The differences kept on purpose:
//
// - an LZW minimum code size of 0 (giflib reads it, GIFDecoder reports damage, as browsers
//   refuse it);
// - an image preceded by several graphic control extensions, or one whose block is not 4 bytes
//   long (giflib takes the first and only a 4-byte one, GIFDecoder the last of at least 4 bytes);
// - a 0-pixel image (giflib fails to allocate its raster).
//
// A disagreement crashes with a message saying what differs.
import Foundation

private let decoder = GIFDecoder(maximumPixelCount: 1 << 20, maximumDimension: 4096, maximumFrameCount: 64)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGIFAgainstGiflib(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> Int32 {
    let data = Data(bytes: bytes, count: count)
    guard let container = try? decoder.container(of: data) else { return 0 }
    var screenWidth: Int32 = 0
    var screenHeight: Int32 = 0
    var frames: UnsafeMutablePointer<gifshim_frame>?
    var rasters: UnsafeMutablePointer<UInt8>?
    var errorCode: Int32 = 0
    let imageCount = gifshim_decode(bytes, count, &screenWidth, &screenHeight, &frames, &rasters, &errorCode)
    defer {
        free(frames)
        free(rasters)
    }
    guard imageCount >= 0, let frames, let rasters else { return 0 }
    guard container.frames.allSatisfy({ $0.minimumCodeSize != 0 && $0.pixelCount > 0 }) else { return 0 }

    func disagree(_ message: String) -> Never {
        fatalError("DISAGREEMENT: \(message)")
    }
    guard container.screenWidth == Int(screenWidth), container.screenHeight == Int(screenHeight) else {
        disagree("screen \(container.screenWidth)×\(container.screenHeight), giflib \(screenWidth)×\(screenHeight)")
    }
    guard container.frames.count == Int(imageCount) else {
        disagree("\(container.frames.count) frames, giflib \(imageCount)")
    }
    let reader = GIFFrameReader(data: data, container: container, strictness: .lenient)
    var offset = 0
    for (index, record) in container.frames.enumerated() {
        let theirs = frames[index]
        guard record.x == Int(theirs.left), record.y == Int(theirs.top), record.width == Int(theirs.width),
            record.height == Int(theirs.height), record.isInterlaced == (theirs.interlaced != 0)
        else { disagree("frame \(index): descriptor \(record), giflib \(theirs)") }
        if theirs.control_count == 1, theirs.control_valid != 0 {
            let transparent = theirs.transparent < 0 ? nil : UInt8(theirs.transparent)
            guard record.delay == Int(theirs.delay), record.disposalMethod == UInt8(theirs.disposal),
                record.transparentIndex == transparent
            else { disagree("frame \(index): control \(record), giflib \(theirs)") }
        }
        let (indices, damage) = reader.indexRaster(index)
        if let damage { disagree("frame \(index): \(damage), giflib read it") }
        let expected = UnsafeBufferPointer(start: rasters + offset, count: record.pixelCount)
        guard indices.elementsEqual(expected) else {
            let first = zip(indices, expected).enumerated().first { $0.element.0 != $0.element.1 }
            disagree("frame \(index): indices differ first at pixel \(first?.offset ?? -1)")
        }
        offset += record.pixelCount
    }
    return 0
}

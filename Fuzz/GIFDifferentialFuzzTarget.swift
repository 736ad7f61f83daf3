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
// - a 0-pixel image (giflib fails to allocate its raster);
// - an LZW code beyond the next free table entry: giflib reads it as the previous string plus a
//   byte from its table's empty slot, browsers (and GIFDecoder) stop the frame there as damaged.
//   The frames before are still compared, and that frame's indices up to the bad code (when not
//   interlaced);
// - an extension whose first sub-block is empty (`21 F9 00`): that 0 ends it for GIFDecoder, as
//   the specification's block terminator; giflib reads the bytes after it as more sub-blocks.
//
// A disagreement crashes with a message saying what differs.
import Foundation

private let decoder = GIFDecoder(maximumPixelCount: 1 << 20, maximumDimension: 4096, maximumFrameCount: 64)

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzGIFAgainstGiflib(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> Int32 {
    let data = Data(bytes: bytes, count: count)
    guard let container = try? decoder.container(of: data), !hasEmptyExtension(data) else { return 0 }
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
        let expected = UnsafeBufferPointer(start: rasters + offset, count: record.pixelCount)
        if case .lzwCodeBeyondTable = damage {
            // Interlaced rows are compared only whole, so an interlaced frame stops the check.
            let decoded = record.isInterlaced ? 0 : decodedCount(of: record, in: data)
            guard indices.prefix(decoded).elementsEqual(expected.prefix(decoded)) else {
                disagree("frame \(index): indices before the code beyond the table differ")
            }
            return 0
        }
        if let damage { disagree("frame \(index): \(damage), giflib read it") }
        guard indices.elementsEqual(expected) else {
            let first = zip(indices, expected).enumerated().first { $0.element.0 != $0.element.1 }
            disagree("frame \(index): indices differ first at pixel \(first?.offset ?? -1)")
        }
        offset += record.pixelCount
    }
    return 0
}

/// How many indices GIFDecoder's LZW stage writes for `record` before it stops.
private func decodedCount(of record: GIFFrameRecord, in data: Data) -> Int {
    data.withUnsafeBytes { bytes in
        let input = UnsafeMutableRawPointer.allocate(
            byteCount: record.compressedCount + GIFLZWDecoder.inputSlack, alignment: 8)
        defer { input.deallocate() }
        input.initializeMemory(as: UInt8.self, repeating: 0, count: record.compressedCount + GIFLZWDecoder.inputSlack)
        GIFBlockReader.gatherSubBlocks(of: bytes, from: record.dataStart, count: record.compressedCount, into: input)
        let output = UnsafeMutableBufferPointer<UInt8>.allocate(capacity: record.pixelCount)
        defer { output.deallocate() }
        return GIFLZWDecoder().decode(
            input, count: record.compressedCount, minimumCodeSize: record.minimumCodeSize, into: output
        ).written
    }
}

/// Whether an extension before the trailer starts with an empty sub-block, walking the blocks as
/// GIFContainer does.
private func hasEmptyExtension(_ data: Data) -> Bool {
    let bytes = [UInt8](data)
    guard bytes.count >= 13 else { return false }
    var offset = 13
    if bytes[10] & 0x80 != 0 { offset += 3 << (Int(bytes[10] & 7) + 1) }
    func skipChain() {
        while offset < bytes.count, bytes[offset] != 0 { offset += Int(bytes[offset]) + 1 }
        offset += 1
    }
    while offset < bytes.count {
        switch bytes[offset] {
        case 0x21:
            guard offset + 2 < bytes.count else { return false }
            if bytes[offset + 2] == 0 { return true }
            offset += 2
            skipChain()
        case 0x2C:
            guard offset + 10 <= bytes.count else { return false }
            let flags = bytes[offset + 9]
            offset += 10
            if flags & 0x80 != 0 { offset += 3 << (Int(flags & 7) + 1) }
            offset += 1
            skipChain()
        default:
            return false
        }
    }
    return false
}

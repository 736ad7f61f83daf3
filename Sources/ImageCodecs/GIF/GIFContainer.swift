/// A GIF file's blocks, read without decoding a pixel: the logical screen, the global colour
/// table, the loop count and each frame's description and data range.
///
/// The walk is linear in the file's size and stops at the trailer; an unknown block byte ends the
/// file as a trailer does (as browsers read it), and anything after the trailer is ignored. A file
/// cut short inside a frame's data keeps that frame, marked truncated; one cut short in the
/// blocks after a complete frame keeps the frames before.
package struct GIFContainer: Sendable, Equatable {
    /// The logical screen's size as stored (either may be 0).
    var screenWidth: Int
    var screenHeight: Int
    /// The byte range of the global colour table, if the file has one.
    var globalColorTable: Range<Int>?
    /// The first NETSCAPE2.0 or ANIMEXTS1.0 loop count, as stored; nil without one.
    var storedLoopCount: Int?
    var frames: [GIFFrameRecord]

    /// The limits the walk enforces as it goes, so a hostile file is refused before its frame
    /// list grows.
    struct Limits: Sendable {
        var maximumDimension: Int
        var maximumPixelCount: Int
        var maximumFrameCount: Int
    }

    /// The canvas: the logical screen, where a 0 side takes the first frame's extent (at least 1).
    var canvasWidth: Int {
        screenWidth > 0 ? screenWidth : max(1, frames.first.map { $0.x + $0.width } ?? 1)
    }
    var canvasHeight: Int {
        screenHeight > 0 ? screenHeight : max(1, frames.first.map { $0.y + $0.height } ?? 1)
    }

    /// The number of times the animation plays, as ``AnimationInfo/loopCount`` reports it: the
    /// stored loop count (0 forever), or 1 without a loop extension.
    var loopCount: Int { storedLoopCount ?? 1 }

    /// Reads the blocks of `bytes`.
    init(reading bytes: UnsafeRawBufferPointer, limits: Limits) throws(GIFError) {
        var reader = GIFBlockReader(bytes: bytes)
        guard bytes.count >= 6 else {
            throw bytes.starts(with: Array("GIF".utf8).prefix(bytes.count)) && !bytes.isEmpty
                ? .truncatedBeforeFirstFrame(offset: bytes.count) : .badSignature
        }
        guard bytes.starts(with: Array("GIF87a".utf8)) || bytes.starts(with: Array("GIF89a".utf8)) else {
            throw .badSignature
        }
        reader.offset = 6
        guard let screen = reader.read(7) else { throw .truncatedBeforeFirstFrame(offset: bytes.count) }
        screenWidth = Int(screen[0]) | Int(screen[1]) << 8
        screenHeight = Int(screen[2]) | Int(screen[3]) << 8
        if let limit = ImageSizeLimit.exceeded(
            width: screenWidth, height: screenHeight, maximumDimension: limits.maximumDimension,
            maximumPixelCount: limits.maximumPixelCount, ceiling: Int.max / 16)
        {
            throw .logicalScreenTooLarge(width: screenWidth, height: screenHeight, limit: limit)
        }
        globalColorTable = nil
        if screen[4] & 0x80 != 0 {
            let count = 3 << (Int(screen[4] & 7) + 1)
            guard reader.remaining >= count else { throw .truncatedBeforeFirstFrame(offset: bytes.count) }
            globalColorTable = reader.offset..<reader.offset + count
            reader.offset += count
        }
        storedLoopCount = nil
        frames = []
        let reachedTrailer = try readBlocks(&reader, limits: limits)
        guard !frames.isEmpty else {
            throw reachedTrailer ? .noFrames : .truncatedBeforeFirstFrame(offset: bytes.count)
        }
        // A side of 0 takes the first frame's extent, which its offset can make 65 535 + 65 535.
        if let limit = ImageSizeLimit.exceeded(
            width: canvasWidth, height: canvasHeight, maximumDimension: limits.maximumDimension,
            maximumPixelCount: limits.maximumPixelCount, ceiling: Int.max / 16)
        {
            throw .logicalScreenTooLarge(width: canvasWidth, height: canvasHeight, limit: limit)
        }
    }

    /// Reads extensions and images up to the trailer, the end of the file, or an unknown block;
    /// false when the file ended first.
    private mutating func readBlocks(_ reader: inout GIFBlockReader, limits: Limits) throws(GIFError) -> Bool {
        var control: (delay: Int, disposal: UInt8, transparentIndex: UInt8?)?
        while let introducer = reader.readByte() {
            switch introducer {
            case 0x21:
                guard let label = reader.readByte() else { return false }
                if label == 0xF9 {
                    guard let block = reader.readSubBlock() else { return false }
                    // An empty first sub-block is the chain's terminator already.
                    if block.isEmpty { continue }
                    if block.count >= 4 {
                        control = (
                            Int(block[1]) | Int(block[2]) << 8, (block[0] >> 2) & 7,
                            block[0] & 1 != 0 ? block[3] : nil
                        )
                    }
                } else if label == 0xFF {
                    guard let identifier = reader.readSubBlock() else { return false }
                    if identifier.isEmpty { continue }
                    let isLoop =
                        identifier.elementsEqual("NETSCAPE2.0".utf8) || identifier.elementsEqual("ANIMEXTS1.0".utf8)
                    while let block = reader.readSubBlock(), !block.isEmpty {
                        if isLoop, storedLoopCount == nil, block.count >= 3, block[0] == 1 {
                            storedLoopCount = Int(block[1]) | Int(block[2]) << 8
                        }
                    }
                    continue
                }
                // Comment, plain text, unknown extensions and a graphic control block's tail.
                guard reader.skipSubBlocks() else { return false }
            case 0x2C:
                guard frames.count < limits.maximumFrameCount else {
                    throw .tooManyFrames(limit: limits.maximumFrameCount)
                }
                guard let frame = try readImage(&reader, control: control, limits: limits) else { return false }
                frames.append(frame)
                control = nil
                if frame.truncatedAt != nil { return false }
            default:
                // The trailer, or a byte no block starts with, which browsers read as one.
                return true
            }
        }
        return false
    }

    /// Reads an image descriptor, its local colour table and the extent of its data; nil when
    /// the file ends before the data starts.
    private func readImage(
        _ reader: inout GIFBlockReader, control: (delay: Int, disposal: UInt8, transparentIndex: UInt8?)?,
        limits: Limits
    ) throws(GIFError) -> GIFFrameRecord? {
        guard let descriptor = reader.read(9) else { return nil }
        let width = Int(descriptor[4]) | Int(descriptor[5]) << 8
        let height = Int(descriptor[6]) | Int(descriptor[7]) << 8
        if let limit = ImageSizeLimit.exceeded(
            width: width, height: height, maximumDimension: limits.maximumDimension,
            maximumPixelCount: limits.maximumPixelCount, ceiling: Int.max / 16)
        {
            throw .frameTooLarge(frame: frames.count, width: width, height: height, limit: limit)
        }
        var localColorTable: Range<Int>?
        if descriptor[8] & 0x80 != 0 {
            let count = 3 << (Int(descriptor[8] & 7) + 1)
            guard reader.remaining >= count else { return nil }
            localColorTable = reader.offset..<reader.offset + count
            reader.offset += count
        }
        guard let minimumCodeSize = reader.readByte() else { return nil }
        let dataStart = reader.offset
        let (compressedCount, isComplete) = reader.measureSubBlocks()
        return GIFFrameRecord(
            x: Int(descriptor[0]) | Int(descriptor[1]) << 8, y: Int(descriptor[2]) | Int(descriptor[3]) << 8,
            width: width, height: height, isInterlaced: descriptor[8] & 0x40 != 0,
            localColorTable: localColorTable, transparentIndex: control?.transparentIndex,
            delay: control?.delay ?? 0, disposalMethod: control?.disposal ?? 0,
            minimumCodeSize: Int(minimumCodeSize), dataStart: dataStart, compressedCount: compressedCount,
            truncatedAt: isComplete ? nil : reader.offset)
    }
}

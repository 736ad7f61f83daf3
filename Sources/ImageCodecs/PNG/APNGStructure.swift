/// The animation chunks of an APNG file, read in one pass without decompressing anything: the
/// `acTL`, each frame's `fcTL` and where its compressed data lies.
///
/// Checked here, before any frame is decoded: the chunks' lengths, the CRC-32s of all but the
/// image data (an `fcTL` with a bad one is an error: dropping it, libpng's rule for ancillary
/// chunks, would break the sequence), the sequence numbers, the places of the chunks, every
/// frame's rectangle and operations, and the frame count against
/// ``PNGDecoder/maximumFrameCount``. The `fdAT` chunks' CRC-32s are left for the frame's decode,
/// which checks them while it inflates, as the still decoder checks `IDAT`'s: reading the file
/// costs no pass over the frames' data. The critical chunks after the default image's data are
/// judged here as ``PNGContents`` judges them, since it reads only the chunks before.
///
/// A file cut short is read up to its last whole chunk: ``truncationOffset`` says where.
struct APNGStructure {
    /// One frame: its description and the pieces of its zlib stream.
    struct Frame {
        let control: APNGFrameControl
        let info: AnimationFrameInfo
        /// The frame's compressed data as byte ranges of the file, in order: the `fdAT` chunks'
        /// data after their sequence numbers. Empty for the default image, whose data is the
        /// `IDAT` chunks'.
        var dataRanges: [Range<Int>] = []
        /// What the CRC-32 of each `fdAT` chunk covers (its type and data; the stored CRC-32
        /// follows in the file), as ``CRC32Lane`` takes them.
        var checksumRanges: [Range<Int>] = []
    }

    /// `num_frames` from `acTL`.
    let declaredFrameCount: Int
    /// `num_plays` from `acTL`: 0 forever.
    let playCount: Int
    /// Whether an `fcTL` precedes `IDAT`, making the default image the first frame.
    let defaultImageIsFirstFrame: Bool
    /// The frames found, at most ``declaredFrameCount`` (later ones are left out).
    let frames: [Frame]
    /// How many `fcTL` chunks the file has.
    let foundFrameCount: Int
    /// Where the file is cut short (inside the chunk starting there, or before `IEND`), or nil.
    let truncationOffset: Int?
    /// The offset of the chunk that ends the first run of `IDAT` chunks, or nil if none does.
    let imageDataEnd: Int?

    /// The `acTL` chunk's frame count, if the file has a valid one before its first `IDAT`:
    /// whether it is an APNG, read cheaply (the chunks before the image data).
    ///
    /// - Parameter bytes: The whole file.
    /// - Returns: `num_frames`, or nil for a still PNG (or a file too broken to tell).
    static func declaredFrameCount(_ bytes: UnsafeRawBufferPointer) -> Int? {
        // Lengths and types only, no CRC-32 but acTL's: a still PNG's header stays cheap however
        // large its metadata chunks are.
        var offset = PNGChunkReader.signature.count
        guard bytes.count >= offset, bytes.starts(with: PNGChunkReader.signature) else { return nil }
        while bytes.count - offset >= 12 {
            let length = Int(bytes.bigEndianUInt32(at: offset))
            let type = bytes.bigEndianUInt32(at: offset + 4)
            guard length <= bytes.count - offset - 12 else { return nil }
            switch type {
            case PNGChunk.idat, PNGChunk.iend:
                return nil
            case PNGChunk.actl where length == 8:
                let checksummed = UnsafeRawBufferPointer(rebasing: bytes[(offset + 4)..<(offset + 16)])
                if CRC32.checksum(checksummed) == bytes.bigEndianUInt32(at: offset + 16) {
                    return Int(bytes.bigEndianUInt32(at: offset + 8))
                }
            default:
                break
            }
            offset += length + 12
        }
        return nil
    }

    /// Reads the animation chunks of a file.
    ///
    /// - Parameters:
    ///   - bytes: The whole file.
    ///   - header: Its header, validated.
    ///   - maximumFrameCount: The most frames `acTL` may declare.
    /// - Returns: The structure, or nil if the file has no valid `acTL` before `IDAT` (a still
    ///   PNG).
    /// - Throws: ``PNGError`` for the first defect found, in file order; not for a file cut
    ///   short, whose chunks up to the cut are read.
    init?(reading bytes: UnsafeRawBufferPointer, header: PNGHeader, maximumFrameCount: Int) throws(PNGError) {
        var reader = try PNGChunkReader(bytes: bytes)
        var declared: Int?
        var playCount = 0
        var sawImageData = false
        var defaultIsFrame = false
        var frames: [Frame] = []
        var foundFrameCount = 0
        var nextSequence: UInt32 = 0
        var truncation: Int?
        var imageDataEnd: Int?
        var paletteBeforeImageData = false
        while true {
            let next: PNGChunk?
            do {
                next = try reader.next(deferringChecksumOf: PNGChunk.idat, and: PNGChunk.fdat)
            } catch {
                guard case .truncated(let offset) = error else { throw error }
                truncation = offset
                break
            }
            guard let chunk = next else {
                truncation = bytes.count
                break
            }
            if sawImageData, imageDataEnd == nil, chunk.type != PNGChunk.idat { imageDataEnd = chunk.offset }
            if imageDataEnd != nil {
                try Self.judgeAfterImageData(chunk, paletteBeforeImageData: paletteBeforeImageData)
            }
            switch chunk.type {
            case PNGChunk.iend:
                break
            case PNGChunk.idat:
                sawImageData = true
                continue
            case PNGChunk.plte:
                paletteBeforeImageData = paletteBeforeImageData || !sawImageData
                continue
            case PNGChunk.actl:
                // A second acTL, or one after the image data, is ignored, as libpng does.
                guard declared == nil, !sawImageData, chunk.hasValidChecksum else { continue }
                guard chunk.data.count == 8 else {
                    throw .invalidAnimationChunkLength(chunk: "acTL", offset: chunk.offset, length: chunk.data.count)
                }
                let count = Int(chunk.data.bigEndianUInt32(at: 0))
                guard count >= 1 else { throw .invalidFrameCount(declared: count) }
                guard count <= maximumFrameCount else {
                    throw .tooManyFrames(declared: count, limit: maximumFrameCount)
                }
                declared = count
                playCount = Int(chunk.data.bigEndianUInt32(at: 4))
                frames.reserveCapacity(count)
                continue
            case PNGChunk.fctl, PNGChunk.fdat:
                // Before acTL these chunks mean nothing; a still PNG with them stays a still.
                guard let declared else {
                    if sawImageData { return nil }
                    throw .misplacedAnimationChunk(chunk: chunk.name, offset: chunk.offset)
                }
                try Self.checkChecksum(chunk, in: bytes)
                // fdAT continues the last fcTL's frame, which must come after the image data.
                let continuesDefault = defaultIsFrame && foundFrameCount == 1
                if chunk.type == PNGChunk.fdat, !sawImageData || foundFrameCount == 0 || continuesDefault {
                    throw .misplacedAnimationChunk(chunk: chunk.name, offset: chunk.offset)
                }
                let sequence = try Self.sequenceNumber(of: chunk)
                let frame = chunk.type == PNGChunk.fctl ? foundFrameCount : max(foundFrameCount - 1, 0)
                guard sequence == nextSequence else {
                    throw .animationSequence(
                        chunk: chunk.name, offset: chunk.offset, found: sequence, expected: nextSequence, frame: frame)
                }
                nextSequence &+= 1
                if chunk.type == PNGChunk.fctl {
                    if sawImageData {
                        // The frame before this one needs data (the default image has IDAT).
                        if let last = frames.last, last.dataRanges.isEmpty, !(defaultIsFrame && frames.count == 1) {
                            throw .missingFrameData(frame: frames.count - 1)
                        }
                    } else {
                        guard foundFrameCount == 0 else {
                            throw .misplacedAnimationChunk(chunk: chunk.name, offset: chunk.offset)
                        }
                        defaultIsFrame = true
                    }
                    let control = try APNGFrameControl(parsing: chunk.data, offset: chunk.offset)
                    let info = try control.frameInfo(
                        index: foundFrameCount, canvasWidth: header.width, canvasHeight: header.height)
                    foundFrameCount += 1
                    if frames.count < declared { frames.append(Frame(control: control, info: info)) }
                } else {
                    if foundFrameCount <= frames.count {
                        let start = chunk.offset + 12
                        frames[frames.count - 1].dataRanges.append(start..<start + chunk.data.count - 4)
                        let checksummed = chunk.offset + 4
                        frames[frames.count - 1].checksumRanges.append(
                            checksummed..<checksummed + chunk.data.count + 4)
                    }
                }
                continue
            default:
                continue
            }
            break
        }
        guard let declared else { return nil }
        if truncation == nil, let last = frames.last, last.dataRanges.isEmpty,
            !(defaultIsFrame && frames.count == 1), foundFrameCount == frames.count
        {
            throw .missingFrameData(frame: frames.count - 1)
        }
        guard !frames.isEmpty else { throw .frameCountMismatch(declared: declared, found: 0) }
        declaredFrameCount = declared
        self.playCount = playCount
        defaultImageIsFirstFrame = defaultIsFrame
        self.frames = frames
        self.foundFrameCount = foundFrameCount
        truncationOffset = truncation
        self.imageDataEnd = imageDataEnd
    }

    /// Throws for a chunk after the default image's data what ``PNGContents`` would: an unknown
    /// critical chunk, a second `IHDR`, a second `PLTE`. (Bad CRC-32s on critical chunks the
    /// chunk reader rejects; other chunks there are ignored.)
    private static func judgeAfterImageData(_ chunk: PNGChunk, paletteBeforeImageData: Bool) throws(PNGError) {
        switch chunk.type {
        case PNGChunk.ihdr:
            throw .chunkOrder(chunk: chunk.name, after: chunk.name)
        case PNGChunk.plte:
            if paletteBeforeImageData { throw .chunkOrder(chunk: chunk.name, after: chunk.name) }
        case PNGChunk.idat, PNGChunk.iend:
            return
        default:
            if chunk.isCritical { throw .unknownCriticalChunk(chunk.name) }
        }
    }

    /// The sequence number that starts an `fcTL` or `fdAT` chunk's data.
    private static func sequenceNumber(of chunk: PNGChunk) throws(PNGError) -> UInt32 {
        let minimum = chunk.type == PNGChunk.fctl ? APNGFrameControl.byteCount : 4
        guard chunk.data.count >= minimum, chunk.type == PNGChunk.fdat || chunk.data.count == minimum else {
            throw .invalidAnimationChunkLength(chunk: chunk.name, offset: chunk.offset, length: chunk.data.count)
        }
        return chunk.data.bigEndianUInt32(at: 0)
    }

    /// Rejects an animation chunk whose CRC-32 does not match: dropping it as libpng drops other
    /// ancillary chunks would break the sequence or lose frame data.
    private static func checkChecksum(_ chunk: PNGChunk, in bytes: UnsafeRawBufferPointer) throws(PNGError) {
        guard !chunk.hasValidChecksum else { return }
        let end = chunk.offset + 8 + chunk.data.count
        let declared = UnsafeRawBufferPointer(rebasing: bytes[end..<end + 4]).bigEndianUInt32(at: 0)
        throw .checksumMismatch(
            chunk: chunk.name, declared: declared, computed: CRC32.checksum(chunk.checksummedBytes))
    }
}

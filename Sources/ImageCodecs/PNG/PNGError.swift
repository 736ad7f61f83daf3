/// Why ``PNGDecoder`` rejected a file.
///
/// Every case carries the exact values that made the file invalid, so tests and logs can tell
/// one defect from another. Chunk types are given as their four ASCII letters (`"IDAT"`); bytes
/// that are not printable ASCII are shown as `\xNN` escapes.
public enum PNGError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file does not start with the eight-byte PNG signature `89 50 4E 47 0D 0A 1A 0A`.
    case badSignature
    /// The file ends inside the chunk (or the signature) that starts at byte `offset`.
    case truncated(offset: Int)
    /// The length field of the chunk at byte `offset` exceeds 2³¹ − 1, the largest length PNG allows.
    case invalidChunkLength(offset: Int, length: UInt32)
    /// The type of the chunk at byte `offset` contains a byte that is not an ASCII letter.
    case invalidChunkType(offset: Int, type: String)
    /// A critical chunk's stored CRC-32 differs from the CRC-32 of its type and data. (An
    /// ancillary chunk with a bad CRC is dropped, as libpng does.)
    case checksumMismatch(chunk: String, declared: UInt32, computed: UInt32)
    /// The IHDR chunk's data is not 13 bytes long.
    case invalidHeaderLength(Int)
    /// The width or height is 0 or exceeds 2³¹ − 1.
    case invalidDimensions(width: UInt32, height: UInt32)
    /// The color type is not 0, 2, 3, 4 or 6.
    case invalidColorType(UInt8)
    /// The bit depth is not one the color type allows (for example 3, or 16 with a palette).
    case invalidBitDepth(UInt8, colorType: UInt8)
    /// The compression method is not 0 (deflate).
    case invalidCompressionMethod(UInt8)
    /// The filter method is not 0 (adaptive filtering with five filter types).
    case invalidFilterMethod(UInt8)
    /// The interlace method is not 0 (none) or 1 (Adam7).
    case invalidInterlaceMethod(UInt8)
    /// The image exceeds one of the decoder's size limits; nothing was allocated for it.
    case imageTooLarge(width: Int, height: Int, limit: SizeLimit)
    /// Decoding the image would hold `bytesNeeded` bytes at its peak (output and scratch,
    /// computed from the header), more than ``PNGDecoder/maximumDecodingBytes`` (`limit`);
    /// nothing was allocated for it.
    case decodeTooLarge(bytesNeeded: Int, limit: Int)
    /// A chunk the file needs is absent: `"IHDR"` first, `"PLTE"` for palette images, `"IDAT"`,
    /// or `"IEND"` at the end.
    case missingChunk(String)
    /// `chunk` appears after `after`, where a decoder must reject it: a second IHDR or a second
    /// PLTE. (Misplaced ancillary chunks and IDAT chunks after the first run are ignored.)
    case chunkOrder(chunk: String, after: String)
    /// A chunk whose type marks it critical (uppercase first letter) is not one PNG defines.
    case unknownCriticalChunk(String)
    /// The PLTE chunk's length is 0, or, in a palette image, not a multiple of 3 or more than 256
    /// entries. (In other images a PLTE of a bad length is ignored, as libpng does.)
    case invalidPalette(byteCount: Int)
    /// The compressed image data is too small to hold the image, whatever its content: deflate
    /// cannot expand data more than 1032 times.
    case insufficientImageData(expectedBytes: Int, compressedBytes: Int)
    /// A row starts with a filter type other than 0...4. `row` counts the rows of all Adam7
    /// passes from 0.
    case badFilterType(UInt8, row: Int)
    /// The zlib stream in the IDAT chunks is invalid.
    case inflate(InflateError)
    /// The load that called the decoder stopped the decode part-way because nobody waits for the
    /// image any more. Never thrown by a decoder called outside a store's load; says nothing about
    /// the file.
    case cancelled
    /// An APNG's `acTL`, `fcTL` or `fdAT` chunk at byte `offset` has a length its structure does
    /// not allow (`acTL` 8 bytes, `fcTL` 26, `fdAT` at least 4).
    case invalidAnimationChunkLength(chunk: String, offset: Int, length: Int)
    /// An APNG's `acTL` declares `declared` frames: 0, which the APNG specification forbids.
    case invalidFrameCount(declared: Int)
    /// An APNG's `acTL` declares `declared` frames, more than ``PNGDecoder/maximumFrameCount``
    /// (`limit`); nothing was allocated for them.
    case tooManyFrames(declared: Int, limit: Int)
    /// An APNG's `acTL` declares `declared` frames where the file has `found` (`fcTL` chunks).
    /// Thrown when there are none, or by a strict cursor; a lenient one plays the frames found.
    case frameCountMismatch(declared: Int, found: Int)
    /// The `fcTL` or `fdAT` chunk at byte `offset` has sequence number `found` where `expected`
    /// was due: the numbers must run 0, 1, 2… across both chunk types in file order. `frame`
    /// counts the frames from 0 (the one the chunk starts or continues).
    case animationSequence(chunk: String, offset: Int, found: UInt32, expected: UInt32, frame: Int)
    /// An APNG chunk where the specification does not allow it: `acTL` or `fcTL` after another
    /// before `IDAT`, `fdAT` before `IDAT` or continuing the default image, `fcTL` or `fdAT`
    /// without `acTL`.
    case misplacedAnimationChunk(chunk: String, offset: Int)
    /// Frame `frame`'s rectangle (`fcTL`) is empty or does not lie inside the canvas of
    /// `canvasWidth` × `canvasHeight`; the first frame must be the whole canvas at 0,0.
    case invalidFrameRegion(frame: Int, x: Int, y: Int, width: Int, height: Int, canvasWidth: Int, canvasHeight: Int)
    /// Frame `frame`'s `fcTL` has a `dispose_op` above 2 or a `blend_op` above 1.
    case invalidFrameOperation(frame: Int, disposeOp: UInt8, blendOp: UInt8)
    /// Frame `frame` has an `fcTL` but no image data (`IDAT` or `fdAT`) before the next frame or
    /// the end of the file.
    case missingFrameData(frame: Int)
    /// The compressed data of animation frame `frame` is invalid (or cut short).
    case frameData(frame: Int, InflateError)

    /// The size limit an image exceeded: ``PNGDecoder/maximumDimension`` or
    /// ``PNGDecoder/maximumPixelCount``.
    public typealias SizeLimit = ImageSizeLimit

    /// A sentence saying what is wrong, for logs and error messages.
    public var description: String {
        switch self {
        case .badSignature:
            "not a PNG file: the signature is wrong"
        case .truncated(let offset):
            "the file ends inside the chunk at byte \(offset)"
        case .invalidChunkLength(let offset, let length):
            "the chunk at byte \(offset) declares an invalid length of \(length) bytes"
        case .invalidChunkType(let offset, let type):
            "the chunk at byte \(offset) has an invalid type \"\(type)\""
        case .checksumMismatch(let chunk, let declared, let computed):
            "\(chunk) chunk CRC mismatch: declared \(hex(declared)), computed \(hex(computed))"
        case .invalidHeaderLength(let length):
            "the IHDR chunk is \(length) bytes long instead of 13"
        case .invalidDimensions(let width, let height):
            "invalid image size \(width) × \(height)"
        case .invalidColorType(let colorType):
            "invalid color type \(colorType)"
        case .invalidBitDepth(let bitDepth, let colorType):
            "invalid bit depth \(bitDepth) for color type \(colorType)"
        case .invalidCompressionMethod(let method):
            "invalid compression method \(method)"
        case .invalidFilterMethod(let method):
            "invalid filter method \(method)"
        case .invalidInterlaceMethod(let method):
            "invalid interlace method \(method)"
        case .imageTooLarge(let width, let height, let limit):
            "the image of \(width) × \(height) pixels exceeds \(limit)"
        case .decodeTooLarge(let bytesNeeded, let limit):
            "decoding the image needs \(bytesNeeded) bytes at its peak, more than the limit of \(limit) bytes"
        case .missingChunk(let chunk):
            "the file has no \(chunk) chunk"
        case .chunkOrder(let chunk, let after):
            "a \(chunk) chunk may not follow \(after)"
        case .unknownCriticalChunk(let chunk):
            "unknown critical chunk \(chunk)"
        case .invalidPalette(let byteCount):
            "invalid PLTE chunk of \(byteCount) bytes"
        case .insufficientImageData(let expectedBytes, let compressedBytes):
            "\(compressedBytes) compressed bytes cannot hold the \(expectedBytes) bytes of the image"
        case .badFilterType(let filterType, let row):
            "invalid filter type \(filterType) in row \(row)"
        case .inflate(let error):
            "invalid compressed image data: \(error)"
        case .cancelled:
            "the decode was stopped because nobody waits for the image any more"
        case .invalidAnimationChunkLength(let chunk, let offset, let length):
            "the \(chunk) chunk at byte \(offset) is \(length) bytes long, a length APNG does not allow"
        case .invalidFrameCount(let declared):
            "acTL declares \(declared) frames; an animation has at least 1"
        case .tooManyFrames(let declared, let limit):
            "acTL declares \(declared) frames, more than the limit of \(limit)"
        case .frameCountMismatch(let declared, let found):
            "acTL declares \(declared) frames but the file has \(found)"
        case .animationSequence(let chunk, let offset, let found, let expected, let frame):
            "\(chunk) sequence number \(found) where \(expected) was expected, frame \(frame) (chunk at byte \(offset))"
        case .misplacedAnimationChunk(let chunk, let offset):
            "the \(chunk) chunk at byte \(offset) is where APNG does not allow it"
        case .invalidFrameRegion(let frame, let x, let y, let width, let height, let canvasWidth, let canvasHeight):
            "frame \(frame) of \(width) × \(height) at \(x),\(y) is not a valid rectangle of the "
                + "\(canvasWidth) × \(canvasHeight) canvas"
                + (frame == 0 ? " (the first frame must cover it at 0,0)" : "")
        case .invalidFrameOperation(let frame, let disposeOp, let blendOp):
            "frame \(frame) has dispose_op \(disposeOp) and blend_op \(blendOp); at most 2 and 1 are defined"
        case .missingFrameData(let frame):
            "frame \(frame) has no image data"
        case .frameData(let frame, let error):
            "invalid compressed data in frame \(frame): \(error)"
        }
    }
}

/// Formats a checksum the way tools print them: `0x` and eight hex digits.
private func hex(_ value: UInt32) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return "0x" + String(repeating: "0", count: 8 - digits.count) + digits
}

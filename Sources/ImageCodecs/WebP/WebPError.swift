/// Why ``WebPDecoder`` rejected a file.
///
/// Every case carries the exact values that made the file invalid, so tests and logs can tell one
/// defect from another. Byte offsets count from the file's start. A WebP file is decoded whole or
/// not at all, as libwebp's `dwebp` does: nothing is reported as recovered damage.
public enum WebPError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file does not start with `RIFF`, a size and `WEBP`.
    case badSignature
    /// The file ends at byte `offset`, inside the chunk `chunk` (or the RIFF header when `chunk`
    /// is `"RIFF"`) that should end at byte `expectedEnd`.
    case truncated(chunk: String, offset: Int, expectedEnd: Int)
    /// The chunk `chunk` at byte `offset` ends at byte `end`, past the end the RIFF header
    /// declares (`riffEnd`): one of the two sizes lies.
    case chunkBeyondRIFF(chunk: String, offset: Int, end: Int, riffEnd: Int)
    /// The RIFF header declares a size (`declared`) too small to hold any chunk.
    case riffSizeTooSmall(declared: Int)
    /// The `VP8X` chunk is `size` bytes long rather than 10.
    case badVP8XSize(size: Int)
    /// The first chunk is `chunk`, neither `VP8 `, `VP8L` nor `VP8X`.
    case unexpectedFirstChunk(chunk: String)
    /// The file holds no `VP8 ` or `VP8L` chunk with the image.
    case missingImageData
    /// The image inside (`width` × `height`) is not the size of the canvas the `VP8X` chunk
    /// declares (`canvasWidth` × `canvasHeight`).
    case canvasMismatch(canvasWidth: Int, canvasHeight: Int, width: Int, height: Int)
    /// The image has a side of 0.
    case zeroSize
    /// The image (`width` × `height`) exceeds one of the decoder's size limits; nothing was
    /// allocated for it.
    case imageTooLarge(width: Int, height: Int, limit: ImageSizeLimit)
    /// Decoding would hold `bytesNeeded` bytes at its peak, more than
    /// ``WebPDecoder/maximumDecodingBytes`` (`limit`); nothing was allocated for it.
    case decodeTooLarge(bytesNeeded: Int, limit: Int)
    /// A `VP8L` chunk shorter than its 5-byte header, or whose first byte is `signature` rather
    /// than 0x2F.
    case badLosslessHeader(signature: UInt8)
    /// A `VP8L` header whose version field is `version` rather than 0.
    case unsupportedLosslessVersion(version: Int)
    /// A lossless transform of type `type` (0 predictor, 1 cross-colour, 2 subtract-green,
    /// 3 colour-indexing) appears twice.
    case repeatedTransform(type: Int)
    /// A colour cache of `bits` bits, outside 1…11.
    case colorCacheBitsOutOfRange(bits: Int)
    /// A prefix code whose code lengths over-subscribe the code space (Kraft sum above 1).
    case prefixCodeOversubscribed
    /// A prefix code of more than one symbol whose code lengths leave part of the code space
    /// unused (Kraft sum below 1), or that codes no symbol at all.
    case prefixCodeIncomplete
    /// A run of repeated code lengths (`repeat` of them from symbol `symbol`) that passes the
    /// alphabet's `alphabetSize` symbols, or a declared symbol count above it.
    case codeLengthsOverflow(symbol: Int, repeat: Int, alphabetSize: Int)
    /// A backward reference at pixel `position` copying `length` pixels from `distance` pixels
    /// back: before the image's start or past its end.
    case backwardReferenceOutOfRange(position: Int, distance: Int, length: Int)
    /// The lossless bitstream of a `chunk` (`"VP8L"` or `"ALPH"`) ends before its image does.
    case losslessDataEnded(chunk: String)
    /// An `ALPH` chunk whose header byte (`byte`) names an unknown compression method, a
    /// pre-processing above 1 or sets its reserved bits.
    case badAlphaHeader(byte: UInt8)
    /// An uncompressed `ALPH` chunk holding `available` bytes for `expected` alpha values.
    case alphaDataTooShort(expected: Int, available: Int)
    /// An animated file without its `ANIM` chunk before the first `ANMF`.
    case missingAnimationHeader
    /// An `ANIM` or `ANMF` chunk (`chunk`) at byte `offset` too short for its fields.
    case badAnimationChunk(chunk: String, offset: Int)
    /// Frame `frame`'s rectangle passes the canvas's edge.
    case frameOutsideCanvas(frame: Int)
    /// The file has more frames than ``WebPDecoder/maximumFrameCount`` (`limit`).
    case tooManyFrames(limit: Int)
    /// A lossy (`VP8 `) bitstream the lossy decoder refused, with its reason.
    case lossyBitstream(String)
    /// The store no longer needs the image and stopped the decode.
    case cancelled

    /// A sentence saying what is wrong, for logs and error messages.
    public var description: String {
        switch self {
        case .badSignature:
            "not a WebP file: it does not start with RIFF, a size and WEBP"
        case .truncated(let chunk, let offset, let expectedEnd):
            "the file ends at byte \(offset), inside the \(chunk) chunk that should end at byte \(expectedEnd)"
        case .chunkBeyondRIFF(let chunk, let offset, let end, let riffEnd):
            "the \(chunk) chunk at byte \(offset) ends at byte \(end), past the RIFF end at byte \(riffEnd)"
        case .riffSizeTooSmall(let declared):
            "the RIFF size \(declared) is too small to hold a chunk"
        case .badVP8XSize(let size):
            "the VP8X chunk is \(size) bytes long rather than 10"
        case .unexpectedFirstChunk(let chunk):
            "the first chunk is \(chunk), not VP8, VP8L or VP8X"
        case .missingImageData:
            "the file holds no VP8 or VP8L image chunk"
        case .canvasMismatch(let canvasWidth, let canvasHeight, let width, let height):
            "the image is \(width) × \(height) but the canvas \(canvasWidth) × \(canvasHeight)"
        case .zeroSize:
            "the image has a side of 0"
        case .imageTooLarge(let width, let height, let limit):
            "image \(width) × \(height) exceeds \(limit)"
        case .decodeTooLarge(let bytesNeeded, let limit):
            "decoding the image needs \(bytesNeeded) bytes at its peak, more than the limit of \(limit) bytes"
        case .badLosslessHeader(let signature):
            "the VP8L header is shorter than 5 bytes or starts with 0x\(String(signature, radix: 16, uppercase: true)) rather than 0x2F"
        case .unsupportedLosslessVersion(let version):
            "the VP8L version is \(version) rather than 0"
        case .repeatedTransform(let type):
            "lossless transform \(type) appears twice"
        case .colorCacheBitsOutOfRange(let bits):
            "a colour cache of \(bits) bits, outside 1…11"
        case .prefixCodeOversubscribed:
            "a prefix code over-subscribes the code space"
        case .prefixCodeIncomplete:
            "a prefix code is incomplete or empty"
        case .codeLengthsOverflow(let symbol, let count, let alphabetSize):
            "\(count) code lengths from symbol \(symbol) pass the alphabet of \(alphabetSize) symbols"
        case .backwardReferenceOutOfRange(let position, let distance, let length):
            "a backward reference at pixel \(position) copies \(length) pixels from \(distance) back, outside the image"
        case .losslessDataEnded(let chunk):
            "the \(chunk) chunk's lossless data ends before its image"
        case .badAlphaHeader(let byte):
            "the ALPH header byte \(byte) is invalid"
        case .alphaDataTooShort(let expected, let available):
            "the ALPH chunk holds \(available) bytes for \(expected) alpha values"
        case .missingAnimationHeader:
            "the animated file has no ANIM chunk before its first frame"
        case .badAnimationChunk(let chunk, let offset):
            "the \(chunk) chunk at byte \(offset) is too short"
        case .frameOutsideCanvas(let frame):
            "frame \(frame) passes the canvas's edge"
        case .tooManyFrames(let limit):
            "the file has more than \(limit) frames, the maximum frame count"
        case .lossyBitstream(let reason):
            "the lossy VP8 bitstream is invalid: \(reason)"
        case .cancelled:
            "the decode was cancelled"
        }
    }
}

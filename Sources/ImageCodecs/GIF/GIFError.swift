/// Why ``GIFDecoder`` rejected a file, or what damage it recovered from.
///
/// Every case carries the exact values that made the file invalid, so tests and logs can tell one
/// defect from another. Frames are numbered from 0; byte offsets count from the file's start.
public enum GIFError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file does not start with `GIF87a` or `GIF89a`.
    case badSignature
    /// The file ends at byte `offset`, before its first frame's image data starts: inside the
    /// header, the logical screen descriptor, the global colour table, an extension or the first
    /// image descriptor.
    case truncatedBeforeFirstFrame(offset: Int)
    /// The file holds no frame: its trailer (or an unknown block) comes before any image.
    case noFrames
    /// The logical screen exceeds one of the decoder's size limits (a side of 0 counted as the
    /// first frame's extent, see ``GIFDecoder``); nothing was allocated for it.
    case logicalScreenTooLarge(width: Int, height: Int, limit: ImageSizeLimit)
    /// Frame `frame`'s rectangle exceeds one of the decoder's size limits.
    case frameTooLarge(frame: Int, width: Int, height: Int, limit: ImageSizeLimit)
    /// The file has more frames than ``GIFDecoder/maximumFrameCount`` (`limit`); the count was
    /// refused as soon as it passed the limit, before anything was decoded.
    case tooManyFrames(limit: Int)
    /// Decoding would hold `bytesNeeded` bytes at its peak, more than
    /// ``GIFDecoder/maximumDecodingBytes`` (`limit`); nothing was allocated for it.
    case decodeTooLarge(bytesNeeded: Int, limit: Int)
    /// Frame `frame` declares an LZW minimum code size outside 1…8 (`size`): nothing of it is
    /// drawn.
    case invalidMinimumCodeSize(frame: Int, size: Int)
    /// Frame `frame`'s LZW data holds `code`, larger than the next free table entry
    /// (`nextFree`): the frame stops there.
    case lzwCodeBeyondTable(frame: Int, code: Int, nextFree: Int)
    /// The file ends at byte `offset`, inside frame `frame`'s image data.
    case truncatedFrame(frame: Int, offset: Int)
    /// Frame `frame`'s LZW data ends (an end-of-information code, or its last sub-block) after
    /// `decoded` of its `expected` pixels; the rest are transparent.
    case missingPixels(frame: Int, decoded: Int, expected: Int)

    /// A sentence saying what is wrong, for logs and error messages.
    public var description: String {
        switch self {
        case .badSignature:
            "not a GIF file: it does not start with GIF87a or GIF89a"
        case .truncatedBeforeFirstFrame(let offset):
            "the file ends at byte \(offset), before its first frame"
        case .noFrames:
            "the file has no frame"
        case .logicalScreenTooLarge(let width, let height, let limit):
            "logical screen \(width) × \(height) exceeds \(limit)"
        case .frameTooLarge(let frame, let width, let height, let limit):
            "frame \(frame): \(width) × \(height) exceeds \(limit)"
        case .tooManyFrames(let limit):
            "the file has more than \(limit) frames, the maximum frame count"
        case .decodeTooLarge(let bytesNeeded, let limit):
            "decoding the image needs \(bytesNeeded) bytes at its peak, more than the limit of \(limit) bytes"
        case .invalidMinimumCodeSize(let frame, let size):
            "frame \(frame): invalid LZW minimum code size \(size)"
        case .lzwCodeBeyondTable(let frame, let code, let nextFree):
            "frame \(frame): LZW code \(code) beyond the table (next free \(nextFree))"
        case .truncatedFrame(let frame, let offset):
            "frame \(frame): the file ends at byte \(offset), inside its image data"
        case .missingPixels(let frame, let decoded, let expected):
            "frame \(frame): the LZW data ends after \(decoded) of \(expected) pixels"
        }
    }
}

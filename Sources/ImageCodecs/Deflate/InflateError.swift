/// Why a zlib stream (RFC 1950) or the deflate data inside it (RFC 1951) is invalid.
///
/// ``PNGDecoder`` reports these wrapped in ``PNGError/inflate(_:)``.
public enum InflateError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The two header bytes fail the zlib check (`(cmf * 256 + flg) % 31 != 0`).
    case badHeader(cmf: UInt8, flg: UInt8)
    /// The header names a compression method other than deflate with a window of at most 32 KiB.
    case unsupportedMethod(cmf: UInt8)
    /// The header asks for a preset dictionary, which PNG does not allow.
    case presetDictionary
    /// A block header has the reserved block type 3.
    case badBlockType
    /// A stored block's length is not the one's complement of its check field.
    case storedLengthMismatch(length: UInt16, complement: UInt16)
    /// A dynamic block declares more than 286 literal/length codes or more than 30 distance codes.
    case tooManyCodes(literalLength: Int, distance: Int)
    /// A dynamic block's code lengths do not form a valid prefix code.
    case invalidCodeLengths(Alphabet)
    /// A code-length repeat instruction has no previous length to repeat or runs past the end.
    case invalidRepeat
    /// A dynamic block gives the end-of-block symbol no code.
    case missingEndOfBlock
    /// The data uses a code that is not assigned, or one of the reserved symbols
    /// (literal/length 286–287, distance 30–31).
    case invalidCode(Alphabet)
    /// A match refers further back than the data produced so far.
    case distanceTooFarBack(distance: Int, available: Int)
    /// The stream ends before its final block and its Adler-32 checksum.
    case truncated
    /// The stream holds more than the `expected` bytes the image needs.
    case tooMuchData(expected: Int)
    /// The stream ends after `actual` bytes, fewer than the `expected` bytes the image needs.
    case tooLittleData(expected: Int, actual: Int)
    /// The Adler-32 checksum at the end of the stream does not match the decompressed data.
    case adlerMismatch(declared: UInt32, computed: UInt32)

    /// One of the three prefix codes a deflate block can define.
    public enum Alphabet: Sendable, Equatable, CustomStringConvertible {
        /// The code that compresses the other two codes' lengths.
        case codeLength
        /// Literal bytes, match lengths and end of block.
        case literalLength
        /// Match distances.
        case distance

        /// The alphabet's name, as in `literal/length`.
        public var description: String {
            switch self {
            case .codeLength: "code-length"
            case .literalLength: "literal/length"
            case .distance: "distance"
            }
        }
    }

    /// A sentence saying what is wrong, for logs and error messages.
    public var description: String {
        switch self {
        case .badHeader(let cmf, let flg):
            "bad zlib header \(cmf) \(flg)"
        case .unsupportedMethod(let cmf):
            "unsupported zlib compression method/window \(cmf)"
        case .presetDictionary:
            "the zlib stream needs a preset dictionary"
        case .badBlockType:
            "invalid deflate block type 3"
        case .storedLengthMismatch(let length, let complement):
            "stored block length \(length) does not match its complement \(complement)"
        case .tooManyCodes(let literalLength, let distance):
            "too many codes: \(literalLength) literal/length, \(distance) distance"
        case .invalidCodeLengths(let alphabet):
            "invalid \(alphabet) code lengths"
        case .invalidRepeat:
            "invalid code-length repeat"
        case .missingEndOfBlock:
            "the block has no end-of-block code"
        case .invalidCode(let alphabet):
            "invalid \(alphabet) code"
        case .distanceTooFarBack(let distance, let available):
            "distance \(distance) reaches before the start of the data (\(available) bytes so far)"
        case .truncated:
            "the compressed data ends early"
        case .tooMuchData(let expected):
            "the compressed data holds more than the expected \(expected) bytes"
        case .tooLittleData(let expected, let actual):
            "the compressed data holds \(actual) bytes instead of \(expected)"
        case .adlerMismatch(let declared, let computed):
            "Adler-32 mismatch: declared \(declared), computed \(computed)"
        }
    }
}

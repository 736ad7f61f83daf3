/// Why ``JPEGDecoder`` rejected a file.
///
/// Every case carries the exact values that made the file invalid. Markers are given as their
/// second byte (`0xC0` for SOF0), offsets as byte positions in the file.
public enum JPEGError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file does not start with the SOI marker `FF D8`.
    case notAJPEG
    /// The file ends inside the segment, or the entropy-coded data, that starts at byte `offset`.
    case truncated(offset: Int)
    /// The file is a valid JPEG that uses a coding process the decoder leaves out.
    case unsupportedProcess(UnsupportedProcess)
    /// A marker that may not appear where it does (a second SOI, a stray RST, a reserved code).
    case unexpectedMarker(UInt8, offset: Int)
    /// The segment of marker `marker` at byte `offset` has an invalid length or content.
    case badSegment(marker: UInt8, offset: Int)
    /// The frame header declares a width or height of 0 (DNL markers are not supported).
    case invalidDimensions(width: Int, height: Int)
    /// The frame has a number of components other than 1 (gray), 3 (YCbCr, RGB) or 4 (CMYK, YCCK).
    case unsupportedComponentCount(Int)
    /// A component's sampling factors are outside 1...4.
    case badSamplingFactors(componentID: Int, horizontal: Int, vertical: Int)
    /// A component's sampling factors do not divide the frame's largest ones, so it cannot be
    /// upsampled by an integer factor.
    case fractionalSampling(componentID: Int)
    /// A table the frame or a scan refers to was never defined.
    case undefinedTable(TableKind, id: Int)
    /// The Huffman table `id` defines more codes than its code lengths can hold, or DC symbols
    /// above 15.
    case badHuffmanTable(TableKind, id: Int)
    /// The scan header at byte `offset` is inconsistent with the frame (an unknown component, a
    /// spectral selection or successive approximation the process does not allow) or, in a
    /// progressive file, with the earlier scans (AC before DC, a refinement of bits not sent).
    case badScan(offset: Int)
    /// The entropy-coded data of the scan starting at byte `offset` contains an invalid Huffman
    /// code or a run past the end of a block.
    case corruptScanData(offset: Int)
    /// A restart marker was expected at byte `offset` but `found` (a marker code, or `nil` for
    /// data or the end of the file) was there instead.
    case missingRestartMarker(expected: Int, found: UInt8?, offset: Int)
    /// The file has no frame header, or ends before every component received scan data.
    case incompleteImage
    /// `count` bytes that belong to no segment (as libjpeg counts them: not the fill bytes
    /// `FF`) start at byte `offset`, before a marker or the end of the file.
    case extraneousBytes(count: Int, offset: Int)
    /// The image exceeds one of the decoder's size limits; nothing was allocated for it.
    case imageTooLarge(width: Int, height: Int, limit: SizeLimit)
    /// The data after the first scan header is too short to hold the frame's blocks, whatever
    /// its content (every block needs at least one bit); nothing was allocated for it.
    case insufficientData(blocks: Int, bytes: Int)
    /// Decoding the image would hold `bytesNeeded` bytes at its peak (output, coefficients and
    /// scratch, computed from the frame and first scan headers), more than
    /// ``JPEGDecoder/maximumDecodingBytes`` (`limit`); nothing large was allocated for it.
    case decodeTooLarge(bytesNeeded: Int, limit: Int)
    /// The load that called the decoder stopped the decode part-way because nobody waits for the
    /// image any more. Never thrown by a decoder called outside a store's load; says nothing about
    /// the file.
    case cancelled

    /// A coding process the decoder does not implement.
    public enum UnsupportedProcess: Sendable, Equatable, CustomStringConvertible {
        /// Arithmetic entropy coding (SOF9, SOF10, SOF13, SOF14).
        case arithmeticCoding(sofMarker: UInt8)
        /// Lossless coding (SOF3, SOF11).
        case lossless(sofMarker: UInt8)
        /// Hierarchical coding (SOF5–7, SOF15, DHP, EXP).
        case hierarchical(marker: UInt8)
        /// Samples of a precision other than 8 bits (12-bit JPEG).
        case samplePrecision(Int)

        /// The process in words.
        public var description: String {
            switch self {
            case .arithmeticCoding(let marker): "arithmetic coding (SOF marker \(hexByte(marker)))"
            case .lossless(let marker): "lossless coding (SOF marker \(hexByte(marker)))"
            case .hierarchical(let marker): "hierarchical coding (marker \(hexByte(marker)))"
            case .samplePrecision(let bits): "\(bits)-bit samples"
            }
        }
    }

    /// The two kinds of tables a JPEG defines: quantization and Huffman (DC or AC).
    public enum TableKind: Sendable, Equatable, CustomStringConvertible {
        /// A quantization table (DQT).
        case quantization
        /// A Huffman table for DC coefficients (DHT class 0).
        case huffmanDC
        /// A Huffman table for AC coefficients (DHT class 1).
        case huffmanAC

        /// The kind in words.
        public var description: String {
            switch self {
            case .quantization: "quantization table"
            case .huffmanDC: "DC Huffman table"
            case .huffmanAC: "AC Huffman table"
            }
        }
    }

    /// The size limit an image exceeded: ``JPEGDecoder/maximumDimension`` or
    /// ``JPEGDecoder/maximumPixelCount``.
    public typealias SizeLimit = ImageSizeLimit

    /// Whether the file is a valid JPEG the decoder does not support, rather than a broken one.
    public var isUnsupported: Bool {
        if case .unsupportedProcess = self { return true }
        return false
    }

    /// A sentence saying what is wrong, for logs and error messages.
    public var description: String {
        switch self {
        case .notAJPEG:
            "not a JPEG file: it does not start with an SOI marker"
        case .truncated(let offset):
            "the file ends inside the segment or scan data starting at byte \(offset)"
        case .unsupportedProcess(let process):
            "unsupported JPEG process: \(process)"
        case .unexpectedMarker(let marker, let offset):
            "unexpected marker \(hexByte(marker)) at byte \(offset)"
        case .badSegment(let marker, let offset):
            "invalid \(hexByte(marker)) segment at byte \(offset)"
        case .invalidDimensions(let width, let height):
            "invalid image size \(width) × \(height)"
        case .unsupportedComponentCount(let count):
            "unsupported number of components: \(count)"
        case .badSamplingFactors(let id, let horizontal, let vertical):
            "component \(id) has invalid sampling factors \(horizontal)×\(vertical)"
        case .fractionalSampling(let id):
            "component \(id) has sampling factors that do not divide the largest ones"
        case .undefinedTable(let kind, let id):
            "\(kind) \(id) is used but not defined"
        case .badHuffmanTable(let kind, let id):
            "\(kind) \(id) is invalid"
        case .badScan(let offset):
            "invalid scan header at byte \(offset)"
        case .corruptScanData(let offset):
            "corrupt entropy-coded data in the scan starting at byte \(offset)"
        case .missingRestartMarker(let expected, let found, let offset):
            "expected RST\(expected) at byte \(offset), found \(found.map { hexByte($0) } ?? "data")"
        case .incompleteImage:
            "the file ends before the image is complete"
        case .extraneousBytes(let count, let offset):
            "\(count) extraneous bytes at byte \(offset), outside any segment"
        case .imageTooLarge(let width, let height, let limit):
            "the image of \(width) × \(height) pixels exceeds \(limit)"
        case .insufficientData(let blocks, let bytes):
            "\(bytes) bytes of scan data cannot hold the image's \(blocks) blocks"
        case .decodeTooLarge(let bytesNeeded, let limit):
            "decoding the image needs \(bytesNeeded) bytes at its peak, more than the limit of \(limit) bytes"
        case .cancelled:
            "the decode was stopped because nobody waits for the image any more"
        }
    }
}

/// Formats a marker code as tools print it: `0xC0`.
private func hexByte(_ value: UInt8) -> String {
    let digits = String(value, radix: 16, uppercase: true)
    return "0x" + (digits.count < 2 ? "0" : "") + digits
}

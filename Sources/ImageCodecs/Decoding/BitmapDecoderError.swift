/// Why ``BitmapDecoder`` rejected a file.
public enum BitmapDecoderError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file starts with neither the PNG signature nor the JPEG SOI marker; its first (up to)
    /// 8 bytes are given.
    case unrecognizedFormat(leadingBytes: [UInt8])
    /// The file is a PNG and the PNG decoder rejected it.
    case png(PNGError)
    /// The file is a JPEG and the JPEG decoder rejected it.
    case jpeg(JPEGError)

    /// A sentence saying what is wrong: the format decoder's own description, or which bytes
    /// were not recognized.
    public var description: String {
        switch self {
        case .unrecognizedFormat(let bytes):
            let hex = bytes.map { String($0, radix: 16, uppercase: true) }.map { $0.count < 2 ? "0" + $0 : $0 }
            return bytes.isEmpty
                ? "not a PNG or JPEG file: the file is empty"
                : "not a PNG or JPEG file: it starts with \(hex.joined(separator: " "))"
        case .png(let error):
            return error.description
        case .jpeg(let error):
            return error.description
        }
    }
}

extension BitmapDecoderError: SizeLimitReporting {
    package var exceedsSizeLimit: Bool {
        switch self {
        case .unrecognizedFormat: false
        case .png(.imageTooLarge), .png(.decodeTooLarge), .jpeg(.imageTooLarge), .jpeg(.decodeTooLarge): true
        case .png, .jpeg: false
        }
    }
}

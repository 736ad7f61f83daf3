/// Why ``BitmapDecoder`` rejected a file.
public enum BitmapDecoderError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The file starts with neither the PNG signature, the JPEG SOI marker, a GIF signature nor
    /// a RIFF `WEBP` header;
    /// its first (up to) 8 bytes are given.
    case unrecognizedFormat(leadingBytes: [UInt8])
    /// The file is a PNG and the PNG decoder rejected it.
    case png(PNGError)
    /// The file is a JPEG and the JPEG decoder rejected it.
    case jpeg(JPEGError)
    /// The file is a GIF and the GIF decoder rejected it, or, when decoding strictly, found it
    /// damaged.
    case gif(GIFError)
    /// The file is a WebP and the WebP decoder rejected it.
    case webp(WebPError)

    /// A sentence saying what is wrong: the format decoder's own description, or which bytes
    /// were not recognized.
    public var description: String {
        switch self {
        case .unrecognizedFormat(let bytes):
            let hex = bytes.map { String($0, radix: 16, uppercase: true) }.map { $0.count < 2 ? "0" + $0 : $0 }
            return bytes.isEmpty
                ? "not a PNG, JPEG, GIF or WebP file: the file is empty"
                : "not a PNG, JPEG, GIF or WebP file: it starts with \(hex.joined(separator: " "))"
        case .png(let error):
            return error.description
        case .jpeg(let error):
            return error.description
        case .gif(let error):
            return error.description
        case .webp(let error):
            return error.description
        }
    }
}

extension BitmapDecoderError: SizeLimitReporting {
    package var exceedsSizeLimit: Bool {
        switch self {
        case .unrecognizedFormat: false
        case .png(.imageTooLarge), .png(.decodeTooLarge), .jpeg(.imageTooLarge), .jpeg(.decodeTooLarge): true
        case .gif(.logicalScreenTooLarge), .gif(.frameTooLarge), .gif(.decodeTooLarge): true
        case .webp(.imageTooLarge), .webp(.decodeTooLarge): true
        case .png, .jpeg, .gif, .webp: false
        }
    }
}

/// How to decode one file: at which scale, to which size, with the header already read, and how
/// strictly.
public struct DecodeOptions: Sendable {
    /// How a decoder treats a damaged file.
    public enum Strictness: Sendable, Equatable {
        /// Shows what can be recovered, as the format's reference decoder does (libjpeg-turbo
        /// shows a truncated JPEG with its missing part gray), and reports the file damaged.
        case lenient
        /// Throws at the first defect.
        case strict
    }

    /// The scale to record in the image (2 for `icon@2x.png`); at least 1.
    public var scale: Int
    /// The longest side of the result in pixels, the aspect ratio kept; nil for the full size. A
    /// size at least the image's is the full size.
    public var maxPixelSize: Int?
    /// The header read from the same bytes by ``ImageDecoding/header(of:)``, so the decoder does
    /// not read it again; nil to read it.
    public var header: ImageHeader?
    /// How a damaged file is treated.
    public var strictness: Strictness

    /// Options.
    ///
    /// - Parameters:
    ///   - scale: The scale to record in the image. Defaults to 1.
    ///   - maxPixelSize: The longest side of the result, or nil for the full size (the default).
    ///   - header: The header already read from the same bytes, or nil (the default).
    ///   - strictness: How a damaged file is treated. Defaults to ``Strictness/lenient``.
    public init(scale: Int = 1, maxPixelSize: Int? = nil, header: ImageHeader? = nil, strictness: Strictness = .lenient)
    {
        self.scale = scale
        self.maxPixelSize = maxPixelSize
        self.header = header
        self.strictness = strictness
    }
}

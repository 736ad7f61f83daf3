/// What a file's header says before any pixel is decoded: the image's size, its format and how
/// many frames it has.
///
/// A store reads it once per miss (``ImageDecoding/header(of:)``) and hands it back to the
/// decoder in ``DecodeOptions/header``, so the decoder does not read it again.
public struct ImageHeader: Sendable, Equatable {
    /// The width in pixels, upright (a JPEG's Exif orientation applied).
    public var width: Int
    /// The height in pixels, upright.
    public var height: Int
    /// The file's format.
    public var format: ImageFormat
    /// The number of frames: 1 for a still image.
    public var frameCount: Int
    /// What the built-in decoder parsed, so it does not parse it again; nil for other decoders.
    package var parsed: ParsedHeader?

    /// A header.
    ///
    /// - Parameters:
    ///   - width: The width in pixels, upright.
    ///   - height: The height in pixels, upright.
    ///   - format: The file's format.
    ///   - frameCount: The number of frames. Defaults to 1, a still image.
    public init(width: Int, height: Int, format: ImageFormat, frameCount: Int = 1) {
        self.width = width
        self.height = height
        self.format = format
        self.frameCount = frameCount
    }

    package init(width: Int, height: Int, format: ImageFormat, parsed: ParsedHeader) {
        self.init(width: width, height: height, format: format)
        self.parsed = parsed
    }

    /// The pixel size, upright.
    package var size: PixelSize { PixelSize(width: width, height: height) }

    /// Equal when what the header says is: what a decoder kept of it does not count.
    public static func == (lhs: ImageHeader, rhs: ImageHeader) -> Bool {
        lhs.width == rhs.width && lhs.height == rhs.height && lhs.format == rhs.format
            && lhs.frameCount == rhs.frameCount
    }
}

/// What a built-in decoder parsed of a header, carried in ``ImageHeader`` back to it.
package enum ParsedHeader: Sendable {
    case png(PNGHeader)
    case jpeg(JPEGHeaderSummary)
    case gif(GIFContainer)
    case webp(WebPContainer)
}

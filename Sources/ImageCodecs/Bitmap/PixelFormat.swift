/// The memory layout of a ``Bitmap``'s pixels: 8-bit channels, straight (not premultiplied) alpha.
public enum PixelFormat: Sendable, Hashable, CaseIterable, CustomStringConvertible {
    /// One byte per pixel: luminance.
    case gray8
    /// Two bytes per pixel: luminance, then alpha.
    case grayAlpha8
    /// Four bytes per pixel: red, green, blue, alpha.
    case rgba8

    /// The number of bytes one pixel occupies.
    public var bytesPerPixel: Int {
        switch self {
        case .gray8: 1
        case .grayAlpha8: 2
        case .rgba8: 4
        }
    }

    /// Whether the format carries an alpha channel.
    public var hasAlpha: Bool { self != .gray8 }

    /// The format's name, as in `rgba8`.
    public var description: String {
        switch self {
        case .gray8: "gray8"
        case .grayAlpha8: "grayAlpha8"
        case .rgba8: "rgba8"
        }
    }
}

/// The format of an image file, as its decoder names it: the decoders that ship here read
/// ``png``, ``jpeg``, ``gif`` and ``webp``; a decoder of another format names its own.
public struct ImageFormat: Hashable, Sendable, CustomStringConvertible {
    /// The format's usual name, such as `"PNG"`.
    public let name: String

    /// A format called `name`.
    ///
    /// - Parameter name: The format's usual name, such as `"WebP"`.
    public init(name: String) {
        self.name = name
    }

    /// Portable Network Graphics.
    public static let png = ImageFormat(name: "PNG")
    /// JPEG (JFIF, Exif).
    public static let jpeg = ImageFormat(name: "JPEG")
    /// Graphics Interchange Format (GIF87a, GIF89a).
    public static let gif = ImageFormat(name: "GIF")
    /// WebP (RIFF `WEBP`: lossy VP8, lossless VP8L, extended with alpha and animation).
    public static let webp = ImageFormat(name: "WebP")

    public var description: String { name }
}

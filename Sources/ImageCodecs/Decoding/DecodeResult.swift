/// A decoded image, and whether it was recovered from a damaged file.
public struct DecodeResult<Image> {
    /// The image.
    public var image: Image
    /// Whether the file was damaged and the image shows what could be recovered (only with
    /// ``DecodeOptions/Strictness/lenient``); a store counts these in its statistics.
    public var isDamaged: Bool

    /// A result.
    ///
    /// - Parameters:
    ///   - image: The image.
    ///   - isDamaged: Whether it was recovered from a damaged file. Defaults to false.
    public init(image: Image, isDamaged: Bool = false) {
        self.image = image
        self.isDamaged = isDamaged
    }
}

extension DecodeResult: Sendable where Image: Sendable {}

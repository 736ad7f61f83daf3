/// A decoded image, and whether it was recovered from a damaged file.
public struct DecodeResult<Image> {
    /// The image.
    public var image: Image
    /// Whether the file was damaged and the image shows what could be recovered (only with
    /// ``DecodeOptions/Strictness/lenient``); a store counts these in its statistics.
    public var isDamaged: Bool
    /// The first defect the decoder recovered from, when it names one (``JPEGDecoder`` gives a
    /// ``JPEGError``): what a log line about a damaged file should say.
    public var damage: (any Error)?

    /// A result.
    ///
    /// - Parameters:
    ///   - image: The image.
    ///   - isDamaged: Whether it was recovered from a damaged file. Defaults to false.
    public init(image: Image, isDamaged: Bool = false) {
        self.image = image
        self.isDamaged = isDamaged
    }

    /// The result of a decode that recovered from `damage`.
    ///
    /// - Parameters:
    ///   - image: The image recovered.
    ///   - damage: The first defect recovered from.
    public init(image: Image, damage: any Error) {
        self.image = image
        self.isDamaged = true
        self.damage = damage
    }
}

extension DecodeResult: Sendable where Image: Sendable {}

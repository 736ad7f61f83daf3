/// A size limit of the built-in decoders that an image exceeded: ``PNGError/imageTooLarge(width:height:limit:)``
/// and ``JPEGError/imageTooLarge(width:height:limit:)`` carry it.
public enum ImageSizeLimit: Sendable, Equatable, CustomStringConvertible {
    /// The decoder's `maximumDimension`: the width or the height is larger.
    case dimension(Int)
    /// The decoder's `maximumPixelCount`: `width * height` is larger.
    case pixelCount(Int)

    /// The limit in words, as in `the maximum pixel count of 67108864`.
    public var description: String {
        switch self {
        case .dimension(let maximum): "the maximum dimension of \(maximum) pixels"
        case .pixelCount(let maximum): "the maximum pixel count of \(maximum)"
        }
    }

    /// The limit a `width` × `height` image exceeds, the dimension checked first; nil when it
    /// fits. The pixel count never exceeds `ceiling`, whatever `maximumPixelCount` allows, so the
    /// decoder's size computations cannot overflow.
    static func exceeded(
        width: Int, height: Int, maximumDimension: Int, maximumPixelCount: Int, ceiling: Int
    ) -> ImageSizeLimit? {
        guard width <= maximumDimension, height <= maximumDimension else { return .dimension(maximumDimension) }
        let (pixelCount, overflow) = width.multipliedReportingOverflow(by: height)
        guard !overflow, pixelCount <= min(maximumPixelCount, ceiling) else { return .pixelCount(maximumPixelCount) }
        return nil
    }

    /// Stops the program unless every limit a decoder is created with is at least 1: a decoder
    /// that refuses every file is a programming error, not bad input.
    static func requireValid(maximumPixelCount: Int, maximumDimension: Int, maximumDecodingBytes: Int) {
        precondition(maximumPixelCount >= 1, "maximumPixelCount must be at least 1")
        precondition(maximumDimension >= 1, "maximumDimension must be at least 1")
        precondition(maximumDecodingBytes >= 1, "maximumDecodingBytes must be at least 1")
    }
}

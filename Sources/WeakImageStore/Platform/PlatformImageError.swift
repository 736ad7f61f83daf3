#if canImport(ImageIO)
import Foundation

/// Why a platform image decoder rejected a file.
public enum PlatformImageError: Error, Sendable, Equatable, CustomStringConvertible {
    /// ImageIO could not read the data as an image.
    case undecodable
    /// `scale` was below 1.
    case invalidScale(Int)
    /// The image has more pixels than the decoder's `maximumPixelCount`; nothing was decoded.
    case tooManyPixels(width: Int, height: Int, limit: Int)

    /// A sentence saying what failed, for logs and error messages.
    public var description: String {
        switch self {
        case .undecodable: "ImageIO could not decode the data"
        case .invalidScale(let scale): "scale \(scale) is not a valid image scale"
        case .tooManyPixels(let width, let height, let limit):
            "\(width) × \(height) pixels is over the limit of \(limit) pixels"
        }
    }
}

extension PlatformImageError: LocalizedError {
    /// The same sentence as ``description``.
    public var errorDescription: String? { description }
}
#endif

#if canImport(UIKit)
import Foundation
import UIKit

/// Decodes PNG, JPEG, HEIC and every other ImageIO format into a `UIImage` with the file's scale
/// and orientation, decoded on the loading thread so the first draw on the main thread does not
/// pay for it.
///
/// On iOS and tvOS the pixels are decoded by `UIImage.preparingForDisplay()`, straight into the
/// format the display wants; where that is unavailable (watchOS) or declines, ImageIO decodes them
/// eagerly (`kCGImageSourceShouldCacheImmediately`).
public struct UIImageDecoder: ImageDecoding {
    /// The most pixels (`width × height`) an image may have; larger images are refused before
    /// anything is decoded. Defaults to 64 Mi (67 108 864), a 256 MiB RGBA bitmap.
    public var maximumPixelCount: Int

    /// Creates the decoder.
    ///
    /// - Parameter maximumPixelCount: The most pixels an image may have; at least 1. Defaults to
    ///   64 Mi.
    public init(maximumPixelCount: Int = 67_108_864) {
        precondition(maximumPixelCount >= 1, "maximumPixelCount must be at least 1")
        self.maximumPixelCount = maximumPixelCount
    }

    /// Decodes `data` into a `UIImage` of the given scale.
    ///
    /// - Parameters:
    ///   - data: The file's bytes.
    ///   - scale: The file's scale (2 for `icon@2x.png`).
    /// - Returns: An image whose pixels are already decoded.
    /// - Throws: ``PlatformImageError``.
    public func decode(_ data: Data, scale: Int) throws -> UIImage {
        guard scale >= 1 else { throw PlatformImageError.invalidScale(scale) }
        let source = try CheckedImageSource(data: data, maximumPixelCount: maximumPixelCount)
        let orientation = UIImage.Orientation(source.orientation)
        #if !os(watchOS)
        // Decoding once, into the display's format, beats decoding with ImageIO and then having
        // `preparingForDisplay()` copy the pixels into another format.
        let lazy = UIImage(cgImage: try source.lazyImage(), scale: CGFloat(scale), orientation: orientation)
        if let prepared = lazy.preparingForDisplay() {
            return prepared
        }
        #endif
        return UIImage(cgImage: try source.decodedImage(), scale: CGFloat(scale), orientation: orientation)
    }
}
#endif

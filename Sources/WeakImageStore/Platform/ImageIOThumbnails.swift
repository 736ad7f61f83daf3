#if canImport(ImageIO)
import Foundation
import ImageIO

#if canImport(UIKit)
import UIKit

extension UIImageDecoder {
    /// The pixel size the file declares, read by ImageIO without decoding.
    ///
    /// - Parameter data: The file's bytes.
    /// - Returns: The stored width and height, or nil if ImageIO cannot read the file.
    public func pixelSize(of data: Data) -> (width: Int, height: Int)? {
        CheckedImageSource.pixelSize(of: data)
    }

    /// Decodes `data` straight to at most `maxPixelSize` pixels on its longest side with ImageIO's
    /// thumbnail API (`kCGImageSourceThumbnailMaxPixelSize`, created from the image always, with
    /// its orientation applied, decoded now). ImageIO rounds the shorter side itself, so it may
    /// differ by a pixel from the store's exact rule.
    ///
    /// - Parameters:
    ///   - data: The file's bytes.
    ///   - scale: The file's scale, kept by the thumbnail.
    ///   - maxPixelSize: The longest side of the result, in pixels.
    /// - Returns: An upright, decoded thumbnail.
    /// - Throws: ``PlatformImageError``; the pixel limit applies to the file's full size.
    public func decode(_ data: Data, scale: Int, maxPixelSize: Int) throws -> UIImage {
        guard scale >= 1 else { throw PlatformImageError.invalidScale(scale) }
        let source = try CheckedImageSource(data: data, maximumPixelCount: maximumPixelCount)
        return UIImage(
            cgImage: try source.thumbnail(maxPixelSize: maxPixelSize), scale: CGFloat(scale), orientation: .up)
    }
}
#endif

#if canImport(AppKit) && !targetEnvironment(macCatalyst)
extension NSImageDecoder {
    /// The pixel size the file declares, read by ImageIO without decoding.
    ///
    /// - Parameter data: The file's bytes.
    /// - Returns: The stored width and height, or nil if ImageIO cannot read the file.
    public func pixelSize(of data: Data) -> (width: Int, height: Int)? {
        CheckedImageSource.pixelSize(of: data)
    }

    /// Decodes `data` straight to at most `maxPixelSize` pixels on its longest side with ImageIO's
    /// thumbnail API, upright; see `UIImageDecoder`'s twin.
    ///
    /// - Parameters:
    ///   - data: The file's bytes.
    ///   - scale: The file's scale, kept by the thumbnail.
    ///   - maxPixelSize: The longest side of the result, in pixels.
    /// - Returns: An upright, decoded thumbnail.
    /// - Throws: ``PlatformImageError``; the pixel limit applies to the file's full size.
    public func decode(_ data: Data, scale: Int, maxPixelSize: Int) throws -> SharedNSImage {
        guard scale >= 1 else { throw PlatformImageError.invalidScale(scale) }
        let source = try CheckedImageSource(data: data, maximumPixelCount: maximumPixelCount)
        return SharedNSImage(cgImage: try source.thumbnail(maxPixelSize: maxPixelSize), scale: scale)
    }
}
#endif
#endif

#if canImport(ImageIO)
import Foundation
import ImageIO

#if canImport(UIKit)
import UIKit

extension UIImageDecoder {
    /// The file's header, read by ImageIO without decoding: its stored size.
    ///
    /// - Parameter data: The file's bytes.
    /// - Returns: The header, or nil if ImageIO cannot read the file.
    public func header(of data: Data) -> ImageHeader? {
        ImageHeader.readByImageIO(data)
    }

    /// Decodes `data` as `options` say: full size, or straight to `maxPixelSize` with ImageIO's
    /// thumbnail API. ImageIO reports no damage.
    ///
    /// - Parameters:
    ///   - data: The file's bytes.
    ///   - options: The scale and the size.
    /// - Returns: The image.
    /// - Throws: ``PlatformImageError``.
    public func decode(_ data: Data, options: DecodeOptions) throws -> DecodeResult<UIImage> {
        guard let maxPixelSize = options.maxPixelSize else {
            return DecodeResult(image: try decode(data, scale: options.scale))
        }
        return DecodeResult(image: try decode(data, scale: options.scale, maxPixelSize: maxPixelSize))
    }

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
    /// The file's header, read by ImageIO without decoding: its stored size.
    ///
    /// - Parameter data: The file's bytes.
    /// - Returns: The header, or nil if ImageIO cannot read the file.
    public func header(of data: Data) -> ImageHeader? {
        ImageHeader.readByImageIO(data)
    }

    /// Decodes `data` as `options` say: full size, or straight to `maxPixelSize` with ImageIO's
    /// thumbnail API. ImageIO reports no damage.
    ///
    /// - Parameters:
    ///   - data: The file's bytes.
    ///   - options: The scale and the size.
    /// - Returns: The image.
    /// - Throws: ``PlatformImageError``.
    public func decode(_ data: Data, options: DecodeOptions) throws -> DecodeResult<SharedNSImage> {
        guard let maxPixelSize = options.maxPixelSize else {
            return DecodeResult(image: try decode(data, scale: options.scale))
        }
        return DecodeResult(image: try decode(data, scale: options.scale, maxPixelSize: maxPixelSize))
    }

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
extension ImageHeader {
    /// The header ImageIO reads from `data`: the stored size, and the format for PNG and JPEG
    /// (others are named "ImageIO").
    static func readByImageIO(_ data: Data) -> ImageHeader? {
        guard let size = CheckedImageSource.pixelSize(of: data) else { return nil }
        let format: ImageFormat =
            switch BitmapDecoder.format(of: data) {
            case .png: .png
            case .jpeg: .jpeg
            case nil: ImageFormat(name: "ImageIO")
            }
        return ImageHeader(width: size.width, height: size.height, format: format)
    }
}
#endif

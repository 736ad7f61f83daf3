#if canImport(ImageIO)
import Foundation
import ImageIO

/// The first image of a file opened with ImageIO, its pixel size checked against a limit before
/// any pixel is decoded.
///
/// A small, valid file can declare a huge image (a 60 000 × 60 000 PNG compresses to a few
/// kilobytes and decodes to 14 GB), so the size is read from the file's properties first.
struct CheckedImageSource {
    private let source: CGImageSource
    /// The width of the stored pixels, before the orientation is applied.
    let pixelWidth: Int
    /// The height of the stored pixels, before the orientation is applied.
    let pixelHeight: Int
    /// How the stored pixels must be turned to appear upright (EXIF orientation of photos).
    let orientation: CGImagePropertyOrientation

    /// Opens `data` and checks its first image's size.
    ///
    /// - Throws: ``PlatformImageError/undecodable`` if ImageIO cannot read it,
    ///   ``PlatformImageError/tooManyPixels(width:height:limit:)`` if it is too large.
    init(data: Data, maximumPixelCount: Int) throws(PlatformImageError) {
        guard let (source, properties) = Self.open(data) else { throw .undecodable }
        let (width, height) = properties.size
        let (pixelCount, overflow) = width.multipliedReportingOverflow(by: height)
        guard !overflow, pixelCount <= maximumPixelCount else {
            throw .tooManyPixels(width: width, height: height, limit: maximumPixelCount)
        }
        self.source = source
        pixelWidth = width
        pixelHeight = height
        orientation = properties.orientation
    }

    /// What a file's first image declares, read without decoding it.
    private struct Properties {
        let size: (width: Int, height: Int)
        let orientation: CGImagePropertyOrientation
    }

    /// Opens `data` and reads its first image's properties; nil if ImageIO cannot read them.
    private static func open(_ data: Data) -> (CGImageSource, Properties)? {
        // The decoded pixels are kept where the decoders ask for them, not a second time here.
        let options = [kCGImageSourceShouldCache: false] as CFDictionary
        guard let source = CGImageSourceCreateWithData(data as CFData, options),
            CGImageSourceGetCount(source) > 0,
            let properties = CGImageSourceCopyPropertiesAtIndex(source, 0, options) as? [CFString: Any],
            let width = properties[kCGImagePropertyPixelWidth] as? Int,
            let height = properties[kCGImagePropertyPixelHeight] as? Int,
            width > 0, height > 0
        else { return nil }
        let orientation =
            (properties[kCGImagePropertyOrientation] as? UInt32).flatMap(CGImagePropertyOrientation.init(rawValue:))
            ?? .up
        return (source, Properties(size: (width, height), orientation: orientation))
    }

    /// The image with its pixels still encoded, for a caller that decodes them into a buffer of
    /// its own (`UIImage.preparingForDisplay()`): the image keeps no decoded copy inside it.
    func lazyImage() throws(PlatformImageError) -> CGImage {
        let options = [kCGImageSourceShouldCache: false] as CFDictionary
        guard let image = CGImageSourceCreateImageAtIndex(source, 0, options) else { throw .undecodable }
        return image
    }

    /// The image with its pixels decoded now, on the calling thread, rather than at first draw
    /// on the main thread. The orientation is not applied.
    func decodedImage() throws(PlatformImageError) -> CGImage {
        let options = [kCGImageSourceShouldCacheImmediately: true] as CFDictionary
        guard let image = CGImageSourceCreateImageAtIndex(source, 0, options) else { throw .undecodable }
        return image
    }

    /// The image decoded now with its orientation applied to the pixels, for image types that
    /// have no orientation of their own (`CGImage`, `NSImage`).
    func decodedUprightImage() throws(PlatformImageError) -> CGImage {
        guard orientation != .up else { return try decodedImage() }
        // ImageIO applies the orientation only when making thumbnails; one as large as the image
        // is the whole image, upright.
        let options =
            [
                kCGImageSourceCreateThumbnailFromImageAlways: true,
                kCGImageSourceCreateThumbnailWithTransform: true,
                kCGImageSourceThumbnailMaxPixelSize: max(pixelWidth, pixelHeight),
                kCGImageSourceShouldCacheImmediately: true,
            ] as CFDictionary
        guard let image = CGImageSourceCreateThumbnailAtIndex(source, 0, options) else { throw .undecodable }
        return image
    }

    /// The image decoded now at most `maxPixelSize` pixels on its longest side, upright, by
    /// ImageIO's thumbnail path: formats that can decode reduced (JPEG's DCT scaling) never
    /// decode the full-size pixels, and the others are reduced as they decode.
    func thumbnail(maxPixelSize: Int) throws(PlatformImageError) -> CGImage {
        let options =
            [
                kCGImageSourceCreateThumbnailFromImageAlways: true,
                kCGImageSourceCreateThumbnailWithTransform: true,
                kCGImageSourceThumbnailMaxPixelSize: maxPixelSize,
                kCGImageSourceShouldCacheImmediately: true,
            ] as CFDictionary
        guard let image = CGImageSourceCreateThumbnailAtIndex(source, 0, options) else { throw .undecodable }
        return image
    }

    /// Opens `data` for a decode with `options`: checks the scale, then the first image's size.
    ///
    /// - Throws: ``PlatformImageError/invalidScale(_:)``, or as ``init(data:maximumPixelCount:)``.
    init(data: Data, options: DecodeOptions, maximumPixelCount: Int) throws(PlatformImageError) {
        guard options.scale >= 1 else { throw .invalidScale(options.scale) }
        try self.init(data: data, maximumPixelCount: maximumPixelCount)
    }

    /// The header ImageIO reads from `data` without decoding: the stored size, and the format
    /// (PNG and JPEG by their names here, others by ImageIO's type identifier); nil if ImageIO
    /// cannot read it.
    static func header(of data: Data) -> ImageHeader? {
        guard let (source, properties) = open(data) else { return nil }
        let type = CGImageSourceGetType(source).map { $0 as String } ?? "ImageIO"
        let format: ImageFormat =
            switch type {
            case "public.png": .png
            case "public.jpeg": .jpeg
            default: ImageFormat(name: type)
            }
        return ImageHeader(width: properties.size.width, height: properties.size.height, format: format)
    }

    /// The decoded byte count of `image`: `bytesPerRow × height`, row padding included.
    static func cost(of image: CGImage) -> Int {
        image.bytesPerRow * image.height
    }
}
#endif

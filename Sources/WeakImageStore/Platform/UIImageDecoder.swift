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

    /// The file's header, read by ImageIO without decoding: its stored size and format.
    ///
    /// - Parameter data: The file's bytes.
    /// - Returns: The header, or nil if ImageIO cannot read the file.
    public func header(of data: Data) -> ImageHeader? {
        CheckedImageSource.header(of: data)
    }

    /// Decodes `data` as `options` say, its pixels decoded now: full size with the file's
    /// orientation, or straight to `maxPixelSize` pixels on the longest side with ImageIO's
    /// thumbnail API (`kCGImageSourceThumbnailMaxPixelSize`), upright. ImageIO rounds a
    /// thumbnail's shorter side itself, so it may differ by a pixel from the store's exact rule,
    /// and reports no damage.
    ///
    /// - Parameters:
    ///   - data: The file's bytes.
    ///   - options: The file's scale (2 for `icon@2x.png`), kept by the image, and the size.
    /// - Returns: The image.
    /// - Throws: ``PlatformImageError``; the pixel limit applies to the file's full size.
    public func decode(_ data: Data, options: DecodeOptions) throws -> DecodeResult<UIImage> {
        let source = try CheckedImageSource(data: data, options: options, maximumPixelCount: maximumPixelCount)
        let scale = CGFloat(options.scale)
        if let maxPixelSize = options.maxPixelSize {
            return DecodeResult(
                image: UIImage(
                    cgImage: try source.thumbnail(maxPixelSize: maxPixelSize), scale: scale, orientation: .up))
        }
        return DecodeResult(image: try Self.fullSize(source, scale: scale))
    }

    /// The frames of an animated GIF or APNG, composited by the built-in decoders and made into
    /// images of the options' scale; nil for a still image (``decode(_:options:)`` decodes it).
    ///
    /// - Parameters:
    ///   - data: The file's bytes.
    ///   - options: The scale and the size of every frame.
    /// - Returns: The frames, or nil for a still image.
    /// - Throws: ``BitmapDecoderError`` when the animation cannot be read.
    public func animatedFrames(of data: Data, options: DecodeOptions) throws -> AnimatedFrames<UIImage>? {
        try .decodedByBitmapDecoder(data, options: options, maximumPixelCount: maximumPixelCount) { image, scale in
            UIImage(cgImage: image, scale: CGFloat(scale), orientation: .up)
        }
    }

    private static func fullSize(_ source: CheckedImageSource, scale: CGFloat) throws(PlatformImageError) -> UIImage {
        let orientation = UIImage.Orientation(source.orientation)
        #if !os(watchOS)
        // Decoding once, into the display's format, beats decoding with ImageIO and then having
        // `preparingForDisplay()` copy the pixels into another format.
        let lazy = UIImage(cgImage: try source.lazyImage(), scale: scale, orientation: orientation)
        if let prepared = lazy.preparingForDisplay() {
            return prepared
        }
        #endif
        return UIImage(cgImage: try source.decodedImage(), scale: scale, orientation: orientation)
    }
}
#endif

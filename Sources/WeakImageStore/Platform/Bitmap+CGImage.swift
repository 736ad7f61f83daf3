#if canImport(CoreGraphics)
import CoreGraphics
import Foundation

extension Bitmap {
    /// The pixels as a `CGImage` (straight alpha, device RGB or gray), for the platform images an
    /// animation's frames become; nil if Core Graphics refuses them.
    func makeCGImage() -> CGImage? {
        let (space, alpha): (CGColorSpace, CGImageAlphaInfo) =
            switch format {
            case .gray8: (CGColorSpaceCreateDeviceGray(), .none)
            case .grayAlpha8: (CGColorSpaceCreateDeviceGray(), .last)
            case .rgba8: (CGColorSpaceCreateDeviceRGB(), .last)
            }
        guard let provider = CGDataProvider(data: Data(pixels) as CFData) else { return nil }
        return CGImage(
            width: width, height: height, bitsPerComponent: 8, bitsPerPixel: format.bytesPerPixel * 8,
            bytesPerRow: width * format.bytesPerPixel, space: space, bitmapInfo: CGBitmapInfo(rawValue: alpha.rawValue),
            provider: provider, decode: nil, shouldInterpolate: true, intent: .defaultIntent)
    }
}

extension AnimatedFrames {
    /// The frames of an animated file for a platform decoder: composited by the built-in GIF and
    /// APNG decoders (ImageIO gives frames, not the composited canvas a view shows), each made
    /// into the platform's image by `makeImage` from its `CGImage` and the options' scale.
    static func decodedByBitmapDecoder(
        _ data: Data, options: DecodeOptions, maximumPixelCount: Int,
        makeImage: @escaping @Sendable (CGImage, Int) -> Image
    ) throws -> AnimatedFrames<Image>? {
        let decoder = BitmapDecoder(
            pngDecoder: PNGDecoder(maximumPixelCount: maximumPixelCount),
            jpegDecoder: JPEGDecoder(maximumPixelCount: maximumPixelCount))
        guard let cursor = try decoder.frameCursor(for: data, options: options) else { return nil }
        let scale = options.scale
        return AnimatedFrames(cursor: cursor) { frame in
            guard let image = frame.makeCGImage() else { throw PlatformImageError.undecodable }
            return makeImage(image, scale)
        }
    }
}
#endif

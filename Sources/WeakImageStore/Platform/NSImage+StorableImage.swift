#if canImport(AppKit) && !targetEnvironment(macCatalyst)
import AppKit
import Foundation

extension NSImage: StorableImage {
    /// The decoded bytes of the best `CGImage` representation (`bytesPerRow × height`), or an
    /// RGBA8 estimate from the pixel size when there is none.
    public var cost: Int {
        var rect = CGRect(origin: .zero, size: size)
        if let cgImage = cgImage(forProposedRect: &rect, context: nil, hints: nil) {
            return EagerImageSource.cost(of: cgImage)
        }
        return Int(size.width) * Int(size.height) * 4
    }
}

/// Decodes every ImageIO format into an `NSImage` whose point size is the pixel size divided by
/// the file's scale, with the pixels decoded eagerly.
public struct NSImageDecoder: ImageDecoding {
    /// Creates the decoder.
    public init() {}

    /// Decodes `data` into an `NSImage` of the given scale.
    ///
    /// - Parameters:
    ///   - data: The file's bytes.
    ///   - scale: The file's scale (2 for `icon@2x.png`).
    /// - Returns: An image whose pixels are already decoded.
    /// - Throws: ``PlatformImageError``.
    public func decode(_ data: Data, scale: Int) throws -> NSImage {
        guard scale >= 1 else { throw PlatformImageError.invalidScale(scale) }
        let cgImage = try EagerImageSource.decodedImage(from: data)
        let pointSize = NSSize(
            width: CGFloat(cgImage.width) / CGFloat(scale),
            height: CGFloat(cgImage.height) / CGFloat(scale))
        return NSImage(cgImage: cgImage, size: pointSize)
    }
}

extension ImageStore where Image == NSImage {
    /// Creates a store of `NSImage`s decoded with ``NSImageDecoder``.
    ///
    /// - Parameters:
    ///   - directories: Where names are looked up, in order. Defaults to the main bundle's
    ///     resources.
    ///   - policy: How decoded images are kept. Defaults to ``CachePolicy/default``.
    ///   - scales: The scale suffixes to try, in order. Defaults to `[2, 1, 3]` (Retina first).
    ///   - extensions: The file extensions to try, in order. Defaults to `["png"]`.
    public convenience init(
        directories: [URL] = Bundle.main.resourceURL.map { [$0] } ?? [],
        policy: CachePolicy = .default,
        scales: [Int] = [2, 1, 3],
        extensions: [String] = ["png"]
    ) {
        self.init(
            directories: directories, policy: policy, scales: scales, extensions: extensions,
            decoder: NSImageDecoder()
        )
    }
}
#endif

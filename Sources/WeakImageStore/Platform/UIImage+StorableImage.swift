#if canImport(UIKit)
import Foundation
import UIKit

extension UIImage: StorableImage {
    /// The decoded bytes of the backing `CGImage` (`bytesPerRow × height`), or an RGBA8 estimate
    /// from the pixel size when there is none.
    public var cost: Int {
        if let cgImage { return EagerImageSource.cost(of: cgImage) }
        return Int(size.width * scale) * Int(size.height * scale) * 4
    }
}

/// Decodes PNG, JPEG, HEIC and every other ImageIO format into a `UIImage` with the file's scale,
/// decoded eagerly so the first draw on the main thread does not pay for it.
public struct UIImageDecoder: ImageDecoding {
    /// Creates the decoder.
    public init() {}

    /// Decodes `data` into a `UIImage` of the given scale.
    ///
    /// - Parameters:
    ///   - data: The file's bytes.
    ///   - scale: The file's scale (2 for `icon@2x.png`).
    /// - Returns: An image whose pixels are already decoded.
    /// - Throws: ``PlatformImageError``.
    public func decode(_ data: Data, scale: Int) throws -> UIImage {
        guard scale >= 1 else { throw PlatformImageError.invalidScale(scale) }
        let cgImage = try EagerImageSource.decodedImage(from: data)
        let image = UIImage(cgImage: cgImage, scale: CGFloat(scale), orientation: .up)
        #if os(watchOS)
        return image
        #else
        // Also prepares the format the display wants, where it differs from the decoded one.
        return image.preparingForDisplay() ?? image
        #endif
    }
}

extension ImageStore where Image == UIImage {
    /// Creates a store of `UIImage`s decoded with ``UIImageDecoder``.
    ///
    /// - Parameters:
    ///   - directories: Where names are looked up, in order. Defaults to the main bundle's
    ///     resources.
    ///   - policy: How decoded images are kept. Defaults to ``CachePolicy/default``.
    ///   - scales: The scale suffixes to try, in order. Defaults to `[2, 3, 1]`; pass
    ///     ``screenFirstScales`` (from the main actor) to prefer the screen's own scale.
    ///   - extensions: The file extensions to try, in order. Defaults to `["png"]`.
    public convenience init(
        directories: [URL] = Bundle.main.resourceURL.map { [$0] } ?? [],
        policy: CachePolicy = .default,
        scales: [Int] = [2, 3, 1],
        extensions: [String] = ["png"]
    ) {
        self.init(
            directories: directories, policy: policy, scales: scales, extensions: extensions,
            decoder: UIImageDecoder()
        )
    }

    #if !os(watchOS)
    /// `[3, 2, 1]` where the current display is 3x, else `[2, 3, 1]`.
    @MainActor
    public static var screenFirstScales: [Int] {
        UITraitCollection.current.displayScale >= 3 ? [3, 2, 1] : [2, 3, 1]
    }
    #endif
}
#endif

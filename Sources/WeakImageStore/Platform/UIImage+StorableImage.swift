#if canImport(UIKit)
import Foundation
import UIKit

/// `UIImage` is immutable and UIKit marks it `Sendable`: the store can share one instance between
/// threads as it is.
extension UIImage: StorableImage {
    /// The decoded bytes of the backing `CGImage` (`bytesPerRow × height`), summed over the frames
    /// of an animated image, or an RGBA8 estimate from the pixel size when there is no `CGImage`
    /// (an image backed by a `CIImage`).
    public var cost: Int {
        if let frames = images, !frames.isEmpty {
            return frames.reduce(0) { $0 + $1.singleFrameCost }
        }
        return singleFrameCost
    }

    private var singleFrameCost: Int {
        if let cgImage { return CheckedImageSource.cost(of: cgImage) }
        return Int(size.width * scale) * Int(size.height * scale) * 4
    }
}

extension UIImage.Orientation {
    /// The UIKit orientation that shows pixels stored with the file's EXIF `orientation` upright.
    init(_ orientation: CGImagePropertyOrientation) {
        switch orientation {
        case .up: self = .up
        case .upMirrored: self = .upMirrored
        case .down: self = .down
        case .downMirrored: self = .downMirrored
        case .left: self = .left
        case .leftMirrored: self = .leftMirrored
        case .right: self = .right
        case .rightMirrored: self = .rightMirrored
        @unknown default: self = .up
        }
    }
}

extension ImageStore.Configuration where Image == UIImage {
    /// A configuration of `UIImage`s decoded with ``UIImageDecoder``, every other knob at its default.
    ///
    /// ``scales`` defaults to ``ImageStore/screenFirstScales``, read once, here, so that a name
    /// finds the file `UIImage(named:)` finds; the configuration can be made on any thread.
    ///
    /// - Parameter directories: Where names are looked up, in order (``directories``). Defaults
    ///   to the main bundle's resources.
    public init(directories: [URL] = Bundle.main.resourceURL.map { [$0] } ?? []) {
        self.init(directories: directories, decoder: UIImageDecoder())
        scales = ImageStore<UIImage>.screenFirstScales
    }
}

extension ImageStore where Image == UIImage {
    /// Creates a store of `UIImage`s decoded with ``UIImageDecoder``.
    ///
    /// By default a name finds the file `UIImage(named:)` finds: the one for the screen's own
    /// scale first (see ``screenFirstScales``).
    ///
    /// | `"icon"` on | files tried in each directory, by default |
    /// |---|---|
    /// | a 3x iPhone | `icon@3x.png`, `icon@2x.png`, `icon.png` |
    /// | a 2x iPhone or iPad | `icon@2x.png`, `icon@3x.png`, `icon.png` |
    ///
    /// Deprecated: build an ``ImageStore/Configuration`` and call ``ImageStore/init(_:)``; the
    /// configuration also holds `maximumFileSize`, `maximumConcurrentLoads` and
    /// `maximumConcurrentDecodingBytes`, which this initializer lacks:
    ///
    /// ```swift
    /// // Before
    /// let images = ImageStore<UIImage>(policy: .weak)
    /// // After
    /// var configuration = ImageStore<UIImage>.Configuration()
    /// configuration.policy = .weak
    /// let images = ImageStore(configuration)
    /// ```
    ///
    /// - Parameters:
    ///   - directories: Where names are looked up, in order. Defaults to the main bundle's
    ///     resources.
    ///   - policy: How decoded images are kept. Defaults to ``CachePolicy/default``.
    ///   - scales: The scale suffixes to try, in order. Defaults to ``screenFirstScales``, read
    ///     once, here; the store can be created on any thread.
    ///   - extensions: The file extensions to try, in order. Defaults to `["png"]`.
    ///   - downloader: Downloads `http` and `https` requests. Defaults to a new ``ImageDownloader``.
    ///   - diskCache: Keeps downloaded bytes on disk. Defaults to none.
    @available(*, deprecated, message: "Use ImageStore(_:) with an ImageStore.Configuration")
    public convenience init(
        directories: [URL] = Bundle.main.resourceURL.map { [$0] } ?? [],
        policy: CachePolicy = .default,
        scales: [Int] = ImageStore<UIImage>.screenFirstScales,
        extensions: [String] = ["png"],
        downloader: ImageDownloader = ImageDownloader(),
        diskCache: DiskImageCache? = nil
    ) {
        self.init(
            directories: directories, policy: policy, scales: scales, extensions: extensions, downloader: downloader,
            diskCache: diskCache, decoder: UIImageDecoder())
    }

    /// The scale suffixes in the order `UIImage(named:)` prefers them on the main screen: its own
    /// scale first, then the larger ones, then the smaller ones. Readable from any thread.
    ///
    /// | main screen | order |
    /// |---|---|
    /// | 3x (most iPhones) | `[3, 2, 1]` |
    /// | 2x (iPads, iPhone SE, XR and 11) | `[2, 3, 1]` |
    /// | 1x (non-Retina displays, 1080p Apple TV) | `[1, 2, 3]` |
    /// | unknown, and on watchOS (every Apple Watch is 2x) | `[2, 3, 1]` |
    ///
    /// The scale is the one UIKit's `UIGraphicsImageRendererFormat.preferred()` reports for "the
    /// main screen's current configuration": unlike `UIScreen` and the current trait collection,
    /// neither of which may be read off the main actor, it answers on any thread.
    public static var screenFirstScales: [Int] {
        #if os(watchOS)
        ScaleOrder.unknownScreen
        #else
        ScaleOrder.screenFirst(displayScale: Double(UIGraphicsImageRendererFormat.preferred().scale))
        #endif
    }
}
#endif

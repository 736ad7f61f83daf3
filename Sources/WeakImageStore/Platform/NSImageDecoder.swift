#if canImport(AppKit) && !targetEnvironment(macCatalyst)
import AppKit
import Foundation

/// Decodes PNG, JPEG, HEIC and every other ImageIO format into a ``SharedNSImage`` whose pixels
/// are decoded on the loading thread, upright, with a point size of the pixel size divided by the
/// file's scale.
public struct NSImageDecoder: ImageDecoding {
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

    /// Decodes `data` as `options` say, its pixels decoded now and upright: full size, or
    /// straight to `maxPixelSize` pixels on the longest side with ImageIO's thumbnail API, as
    /// `UIImageDecoder` does. ImageIO reports no damage.
    ///
    /// - Parameters:
    ///   - data: The file's bytes.
    ///   - options: The file's scale (2 for `icon@2x.png`), kept by the image, and the size.
    /// - Returns: The image.
    /// - Throws: ``PlatformImageError``; the pixel limit applies to the file's full size.
    public func decode(_ data: Data, options: DecodeOptions) throws -> DecodeResult<SharedNSImage> {
        let source = try CheckedImageSource(data: data, options: options, maximumPixelCount: maximumPixelCount)
        let image =
            if let maxPixelSize = options.maxPixelSize {
                try source.thumbnail(maxPixelSize: maxPixelSize)
            } else {
                try source.decodedUprightImage()
            }
        return DecodeResult(image: SharedNSImage(cgImage: image, scale: options.scale))
    }

    /// The frames of an animated GIF or APNG, composited by the built-in decoders and made into
    /// images of the options' scale; nil for a still image (``decode(_:options:)`` decodes it).
    ///
    /// - Parameters:
    ///   - data: The file's bytes.
    ///   - options: The scale and the size of every frame.
    /// - Returns: The frames, or nil for a still image.
    /// - Throws: ``BitmapDecoderError`` when the animation cannot be read.
    public func animatedFrames(of data: Data, options: DecodeOptions) throws -> AnimatedFrames<SharedNSImage>? {
        try .decodedByBitmapDecoder(data, options: options, maximumPixelCount: maximumPixelCount) { image, scale in
            SharedNSImage(cgImage: image, scale: scale)
        }
    }
}

extension ImageStore.Configuration where Image == SharedNSImage {
    /// A configuration of ``SharedNSImage``s decoded with ``NSImageDecoder``, every other knob at its default.
    ///
    /// ``scales`` defaults to `[2, 1, 3]`, Retina first: scaled down on a 1x display a `@2x`
    /// image stays sharp, where `@1x` scaled up on a Retina display would be blurry. Set
    /// `[1, 2, 3]` for an app shown only on standard displays.
    ///
    /// - Parameter directories: Where names are looked up, in order (``directories``). Defaults
    ///   to the main bundle's resources.
    public init(directories: [URL] = Bundle.main.resourceURL.map { [$0] } ?? []) {
        self.init(directories: directories, decoder: NSImageDecoder())
        scales = [2, 1, 3]
    }
}

extension ImageStore where Image == SharedNSImage {
    /// Creates a store of ``SharedNSImage``s decoded with ``NSImageDecoder``.
    ///
    /// `NSImage(named:)` loads every scale of a bundle image (`icon.png` and `icon@2x.png`) into
    /// one `NSImage` and picks a representation each time it draws, by the backing scale of the
    /// screen the window is on. A ``SharedNSImage`` holds one scale, and a window can move
    /// between a Retina and a standard display, so the default tries `@2x` first: scaled down on
    /// a 1x display it stays sharp, where `@1x` scaled up on a Retina display would be blurry.
    ///
    /// | `"icon"` | files tried in each directory, by default |
    /// |---|---|
    /// | on any display | `icon@2x.png`, `icon.png`, `icon@3x.png` |
    ///
    /// Deprecated: build an ``ImageStore/Configuration`` and call ``ImageStore/init(_:)``; the
    /// configuration also holds `maximumFileSize`, `maximumConcurrentLoads` and
    /// `maximumConcurrentDecodingBytes`, which this initializer lacks:
    ///
    /// ```swift
    /// // Before
    /// let images = ImageStore<SharedNSImage>(policy: .weak)
    /// // After
    /// var configuration = ImageStore<SharedNSImage>.Configuration()
    /// configuration.policy = .weak
    /// let images = ImageStore(configuration)
    /// ```
    ///
    /// - Parameters:
    ///   - directories: Where names are looked up, in order. Defaults to the main bundle's
    ///     resources.
    ///   - policy: How decoded images are kept. Defaults to ``CachePolicy/default``.
    ///   - scales: The scale suffixes to try, in order. Defaults to `[2, 1, 3]` (Retina first);
    ///     pass `[1, 2, 3]` for an app shown only on standard displays.
    ///   - extensions: The file extensions to try, in order. Defaults to `["png"]`.
    ///   - downloader: Downloads `http` and `https` requests. Defaults to a new ``ImageDownloader``.
    ///   - diskCache: Keeps downloaded bytes on disk. Defaults to none.
    @available(*, deprecated, message: "Use ImageStore(_:) with an ImageStore.Configuration")
    public convenience init(
        directories: [URL] = Bundle.main.resourceURL.map { [$0] } ?? [],
        policy: CachePolicy = .default,
        scales: [Int] = [2, 1, 3],
        extensions: [String] = ["png"],
        downloader: ImageDownloader = ImageDownloader(),
        diskCache: DiskImageCache? = nil
    ) {
        self.init(
            directories: directories, policy: policy, scales: scales, extensions: extensions, downloader: downloader,
            diskCache: diskCache, decoder: NSImageDecoder())
    }
}
#endif

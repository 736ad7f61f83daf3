#if canImport(AppKit) && !targetEnvironment(macCatalyst)
import AppKit
import ObjectiveC

/// A decoded image for AppKit that an ``ImageStore`` can share between threads: immutable pixels
/// from which each user makes its own `NSImage`.
///
/// A store hands one instance to every thread that asks for the image, at the same time. AppKit
/// does not mark `NSImage` `Sendable`, and it is not: it is mutable (`size`, representations,
/// `lockFocus()`), builds caches as it draws, and Apple documents it as usable from one thread
/// at a time. So the store does not share `NSImage`s. It shares this object, which holds only
/// immutable values: the decoded `CGImage` (immutable and thread-safe; newer SDKs mark it
/// `Sendable`), the scale and the size in points.
///
/// ```swift
/// let images = ImageStore<SharedNSImage>(.init())  // the main bundle's files, Retina first
/// imageView.image = images.image(named: "icon")?.makeNSImage()
/// ```
///
/// Each ``makeNSImage()`` returns a new `NSImage` over the same pixels (no copy) that keeps this
/// object alive: while any `NSImage` made from it is shown, the store goes on sharing it, exactly
/// as it shares a `UIImage` that a view holds.
public final class SharedNSImage: StorableImage {
    private let pixels: ImmutableCGImage
    /// The scale of the file the pixels came from: 2 for `icon@2x.png`.
    public let scale: Int
    /// The size in points: the pixel size divided by ``scale``.
    public let size: CGSize
    /// The decoded bytes of ``cgImage`` (`bytesPerRow × height`).
    public let cost: Int
    /// Tells the stores that handed this image out the moment it dies, so their live-byte
    /// figures are exact (released with the instance, after weak references to it read nil).
    package let deathNotifier = DeathNotifier()

    /// Wraps decoded pixels.
    ///
    /// - Parameters:
    ///   - cgImage: The pixels, upright. Decode them before wrapping them (for example with
    ///     `kCGImageSourceShouldCacheImmediately`), or the first draw decodes them.
    ///   - scale: The scale of the source; at least 1.
    public init(cgImage: CGImage, scale: Int) {
        precondition(scale >= 1, "SharedNSImage scale must be at least 1")
        pixels = ImmutableCGImage(image: cgImage)
        self.scale = scale
        size = CGSize(width: CGFloat(cgImage.width) / CGFloat(scale), height: CGFloat(cgImage.height) / CGFloat(scale))
        cost = CheckedImageSource.cost(of: cgImage)
    }

    /// The decoded pixels; also usable directly, for example with SwiftUI's
    /// `Image(decorative:scale:)`.
    public var cgImage: CGImage {
        pixels.image
    }

    /// A new `NSImage` showing these pixels at ``size``, for the calling thread to use.
    ///
    /// The returned image keeps this object alive, so the store shares it for as long as the
    /// `NSImage` is used. It is cheap: it wraps the same `CGImage`.
    ///
    /// - Returns: An image of its own, which the caller may change without affecting other users.
    public func makeNSImage() -> NSImage {
        let image = NSImage(cgImage: pixels.image, size: size)
        objc_setAssociatedObject(image, Self.associationKey, self, .OBJC_ASSOCIATION_RETAIN_NONATOMIC)
        return image
    }

    // Any address unique to this library identifies the association: this class's metadata.
    private static var associationKey: UnsafeRawPointer {
        UnsafeRawPointer(bitPattern: UInt(bitPattern: ObjectIdentifier(SharedNSImage.self))).unsafelyUnwrapped
    }
}

/// A `CGImage`, which Core Graphics documents as immutable and thread-safe; the SDKs before
/// macOS 14 do not mark it `Sendable` yet, later ones do.
private struct ImmutableCGImage: @unchecked Sendable {
    let image: CGImage
}
extension SharedNSImage: DeathReporting {}
#endif

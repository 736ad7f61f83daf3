import Foundation

/// Turns the bytes of an image file into a decoded image.
///
/// An ``ImageStore`` calls its decoder outside any lock, at most once per image at a time, from
/// whichever thread missed first. Decoders must be safe to call from several threads at once.
public protocol ImageDecoding<Image>: Sendable {
    /// The decoded image type.
    associatedtype Image: StorableImage

    /// Decodes one image file.
    ///
    /// - Parameters:
    ///   - data: The whole file.
    ///   - scale: The scale of the file (2 for `icon@2x.png`), to record in the image.
    /// - Returns: The decoded image.
    /// - Throws: Any error; the store reports it as ``ImageStoreError/decodingFailed(path:reason:)``
    ///   with the error's description.
    func decode(_ data: Data, scale: Int) throws -> Image

    /// The pixel size the file's header declares, read without decoding the pixels.
    ///
    /// - Parameter data: The whole file.
    /// - Returns: The width and height in pixels, or `nil` when this decoder cannot tell; the
    ///   store then never asks it for a reduced size and serves the full-size image instead.
    ///   Defaults to `nil`.
    func pixelSize(of data: Data) -> (width: Int, height: Int)?

    /// Decodes one image file straight to a reduced size: longest side at most `maxPixelSize`,
    /// aspect ratio kept, never upscaled.
    ///
    /// The exact size: `s = maxPixelSize / max(w, h)`, `outW = max(1, floor(w·s + 0.5))`,
    /// `outH = max(1, floor(h·s + 0.5))` in `Double`; a `maxPixelSize` of at least the longest
    /// side gives what ``decode(_:scale:)`` gives. The default implementation ignores
    /// `maxPixelSize` and decodes full size.
    ///
    /// - Parameters:
    ///   - data: The whole file.
    ///   - scale: The scale of the file, to record in the image.
    ///   - maxPixelSize: The most pixels the longest side may have; at least 1.
    /// - Returns: The decoded image.
    /// - Throws: Any error, as ``decode(_:scale:)``.
    func decode(_ data: Data, scale: Int, maxPixelSize: Int) throws -> Image
}

extension ImageDecoding {
    /// Reports no size: decoders that cannot read a header are only asked for full-size images.
    ///
    /// - Parameter data: The whole file (unused).
    /// - Returns: `nil`.
    public func pixelSize(of data: Data) -> (width: Int, height: Int)? { nil }

    /// Decodes full size, ignoring `maxPixelSize`, for decoders that cannot reduce.
    ///
    /// - Parameters:
    ///   - data: The whole file.
    ///   - scale: The scale of the file, to record in the image.
    ///   - maxPixelSize: Ignored.
    /// - Returns: ``decode(_:scale:)``'s image.
    /// - Throws: What ``decode(_:scale:)`` throws.
    public func decode(_ data: Data, scale: Int, maxPixelSize: Int) throws -> Image {
        try decode(data, scale: scale)
    }
}

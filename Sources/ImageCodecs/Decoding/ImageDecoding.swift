import Foundation

/// Turns the bytes of an image file into a decoded image.
///
/// An ``ImageStore`` calls its decoder outside any lock, at most once per image and size at a
/// time, from whichever thread runs the load. Decoders must be safe to call from several threads
/// at once.
///
/// Thumbnails need two more abilities, both optional: reading the pixel size from the file's
/// header (``pixelSize(of:)``), and decoding straight to a reduced size
/// (``decode(_:scale:maxPixelSize:)``). A decoder that cannot tell the pixel size never gets
/// thumbnail requests: the store serves the full-size image instead, so it never holds two live
/// images with the same pixels.
///
/// A decoder that shows damaged files as well as it can (as ``JPEGDecoder`` shows a truncated
/// photo with its missing part gray) can say so through
/// ``decodeReportingDamage(_:scale:maxPixelSize:)``; the store counts those decodes in
/// ``ImageStoreStatistics/damagedDecodes``.
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
    /// - Returns: The width and height in pixels, or nil when this decoder cannot tell; the store
    ///   then never asks it for a reduced size and serves the full-size image instead. The
    ///   default implementation returns nil. A store under a live-cost budget also uses it to
    ///   reserve an image's bytes before decoding it (see
    ///   ``CachePolicy/weakWithBudgetedLRU(liveCostLimit:costLimit:countLimit:admissionCostLimit:)``).
    func pixelSize(of data: Data) -> (width: Int, height: Int)?

    /// Decodes straight to a reduced size: the longest side becomes `maxPixelSize`, the aspect
    /// ratio is kept.
    ///
    /// The store calls it only when ``pixelSize(of:)`` reported a longest side larger than
    /// `maxPixelSize`. The output size is exactly `s = maxPixelSize / max(w, h)`,
    /// `width = max(1, floor(w · s + 0.5))`, `height = max(1, floor(h · s + 0.5))` in `Double`.
    ///
    /// - Parameters:
    ///   - data: The whole file.
    ///   - scale: The scale of the file, to record in the image.
    ///   - maxPixelSize: The longest side of the result, in pixels; at least 1.
    /// - Returns: The reduced image. The default implementation decodes at full size.
    /// - Throws: Any error, as ``decode(_:scale:)`` does.
    func decode(_ data: Data, scale: Int, maxPixelSize: Int) throws -> Image

    /// Decodes as ``decode(_:scale:)`` (or, with `maxPixelSize`, ``decode(_:scale:maxPixelSize:)``)
    /// does, and says whether the file was damaged and the image reconstructed from what was
    /// left of it.
    ///
    /// - Parameters:
    ///   - data: The whole file.
    ///   - scale: The scale of the file, to record in the image.
    ///   - maxPixelSize: The longest side of the result, or nil for the full size.
    /// - Returns: The image, and whether it was recovered from a damaged file. The default
    ///   implementation decodes and reports the file intact.
    /// - Throws: Any error, as the decode it stands for does.
    func decodeReportingDamage(_ data: Data, scale: Int, maxPixelSize: Int?) throws -> (image: Image, isDamaged: Bool)

    /// The most memory a decode of `data` will hold at once — its output and every scratch
    /// buffer — computed from the file's headers without decoding.
    ///
    /// The store's loading threads admit decodes against a shared byte cap with it, so that
    /// several large decodes wait for each other instead of running at once (see
    /// ``ImageStore/defaultMaximumConcurrentDecodingBytes``).
    ///
    /// - Parameters:
    ///   - data: The whole file.
    ///   - maxPixelSize: The longest side of the result, or nil for the full size.
    /// - Returns: The bytes, an upper bound of what the decode allocates at its peak; nil when the
    ///   decoder cannot tell (the default implementation), and the store then admits the decode
    ///   without counting it.
    func decodingPeakBytes(of data: Data, maxPixelSize: Int?) -> Int?
}

extension ImageDecoding {
    /// Unknown: a decoder without this ability gets no thumbnail requests.
    public func pixelSize(of data: Data) -> (width: Int, height: Int)? {
        nil
    }

    /// The full-size decode; only reached through a decoder whose ``pixelSize(of:)`` is
    /// implemented without this.
    public func decode(_ data: Data, scale: Int, maxPixelSize: Int) throws -> Image {
        try decode(data, scale: scale)
    }

    /// Unknown: the store admits the decode without counting it.
    public func decodingPeakBytes(of data: Data, maxPixelSize: Int?) -> Int? {
        nil
    }

    /// The plain decode, reported intact: a decoder without this ability never says otherwise.
    public func decodeReportingDamage(
        _ data: Data, scale: Int, maxPixelSize: Int?
    ) throws -> (image: Image, isDamaged: Bool) {
        if let maxPixelSize {
            (try decode(data, scale: scale, maxPixelSize: maxPixelSize), false)
        } else {
            (try decode(data, scale: scale), false)
        }
    }
}

import Foundation

/// Turns the bytes of an image file into a decoded image: the one seam between a store and its
/// decoders.
///
/// A store calls its decoder outside any lock, at most once per image and size at a time, from
/// whichever thread runs the load. Decoders must be safe to call from several threads at once.
///
/// A decoder implements three calls, two of them optional:
///
/// | call | what it does | without it |
/// |---|---|---|
/// | ``header(of:)`` | reads the size, format and frame count without decoding | no thumbnails: the store serves the full-size image instead, so it never holds two live images with the same pixels |
/// | ``decode(_:options:)`` | decodes at a scale, full size or straight to a maximum pixel size, reusing the header read already, and says whether the file was damaged | (required) |
/// | ``decodingPeakBytes(of:options:)`` | the most memory the decode will hold at once | the store admits the decode without counting it |
///
/// On a miss the store reads the header once and hands it to the other two in
/// ``DecodeOptions/header``. ``decode(_:scale:)`` and ``decode(_:scale:maxPixelSize:)`` are
/// conveniences over ``decode(_:options:)``.
public protocol ImageDecoding<Image>: Sendable {
    /// The decoded image type.
    associatedtype Image: StorableImage

    /// The file's header: pixel size (upright), format and frame count, read without decoding
    /// the pixels.
    ///
    /// - Parameter data: The whole file.
    /// - Returns: The header, or nil when this decoder cannot tell (the default): the store then
    ///   never asks it for a reduced size. A store under a live-cost budget also uses the size to
    ///   reserve an image's bytes before decoding it.
    func header(of data: Data) -> ImageHeader?

    /// Decodes one image file as `options` say.
    ///
    /// A reduced decode (``DecodeOptions/maxPixelSize`` smaller than the image) keeps the aspect
    /// ratio and is exactly `s = maxPixelSize / max(w, h)`, `width = max(1, floor(w · s + 0.5))`,
    /// `height = max(1, floor(h · s + 0.5))` in `Double`; the store asks for one only when the
    /// header reported a larger image.
    ///
    /// - Parameters:
    ///   - data: The whole file.
    ///   - options: The scale to record, the size, the header read from `data` already (reuse it
    ///     rather than reading it again), and how to treat a damaged file.
    /// - Returns: The image, and whether it was recovered from a damaged file.
    /// - Throws: Any error; a store reports it with the error's description (WeakImageStore's
    ///   `ImageStoreError.decodingFailed(path:reason:)`, or `undecodable` for other sources).
    func decode(_ data: Data, options: DecodeOptions) throws -> DecodeResult<Image>

    /// The most memory a decode with `options` will hold at once — its output and every scratch
    /// buffer — computed from the header (``DecodeOptions/header`` when given) without decoding.
    ///
    /// The store admits decodes against a shared byte cap with it, so several large decodes wait
    /// for each other instead of running at once.
    ///
    /// - Parameters:
    ///   - data: The whole file.
    ///   - options: The decode's options.
    /// - Returns: An upper bound of the bytes the decode allocates at its peak; nil when the
    ///   decoder cannot tell (the default), and the store then admits the decode uncounted.
    func decodingPeakBytes(of data: Data, options: DecodeOptions) -> Int?

    /// The frames of an animated file (GIF, APNG), decoded one after another on demand, or nil
    /// for a still image.
    ///
    /// A store makes an animation of one frame from ``decode(_:options:)`` when this is nil, so a
    /// decoder that knows no animated format need not implement it.
    ///
    /// - Parameters:
    ///   - data: The whole file.
    ///   - options: The scale and the maximum pixel size every frame is decoded at.
    /// - Returns: The frames, or nil when the file is a still image (the default).
    /// - Throws: Why the file's frames cannot be read.
    func animatedFrames(of data: Data, options: DecodeOptions) throws -> AnimatedFrames<Image>?
}

extension ImageDecoding {
    /// Unknown: a decoder without this ability gets no thumbnail requests.
    public func header(of data: Data) -> ImageHeader? {
        nil
    }

    /// Unknown: the store admits the decode without counting it.
    public func decodingPeakBytes(of data: Data, options: DecodeOptions) -> Int? {
        nil
    }

    /// None: every file is a still image to this decoder.
    public func animatedFrames(of data: Data, options: DecodeOptions) throws -> AnimatedFrames<Image>? {
        nil
    }

    /// Decodes one image file at full size.
    ///
    /// - Parameters:
    ///   - data: The whole file.
    ///   - scale: The scale of the file (2 for `icon@2x.png`), to record in the image.
    /// - Returns: The decoded image.
    /// - Throws: What ``decode(_:options:)`` throws.
    public func decode(_ data: Data, scale: Int) throws -> Image {
        try decode(data, options: DecodeOptions(scale: scale)).image
    }

    /// Decodes one image file straight to at most `maxPixelSize` pixels on its longest side.
    ///
    /// - Parameters:
    ///   - data: The whole file.
    ///   - scale: The scale of the file, to record in the image.
    ///   - maxPixelSize: The longest side of the result, in pixels; at least 1.
    /// - Returns: The reduced image, or the full-size image if it is not larger.
    /// - Throws: What ``decode(_:options:)`` throws.
    public func decode(_ data: Data, scale: Int, maxPixelSize: Int) throws -> Image {
        try decode(data, options: DecodeOptions(scale: scale, maxPixelSize: maxPixelSize)).image
    }

    /// The pixel size the header declares (upright): ``header(of:)``'s size.
    ///
    /// - Parameter data: The whole file.
    /// - Returns: The width and height, or nil when the decoder cannot tell.
    public func pixelSize(of data: Data) -> (width: Int, height: Int)? {
        header(of: data).map { ($0.width, $0.height) }
    }

    /// The peak of a decode at `maxPixelSize`: ``decodingPeakBytes(of:options:)``.
    ///
    /// - Parameters:
    ///   - data: The whole file.
    ///   - maxPixelSize: The longest side of the result, or nil for the full size.
    /// - Returns: The bytes, or nil when the decoder cannot tell.
    public func decodingPeakBytes(of data: Data, maxPixelSize: Int?) -> Int? {
        decodingPeakBytes(of: data, options: DecodeOptions(maxPixelSize: maxPixelSize))
    }

    /// Decodes and says whether the file was damaged.
    ///
    /// - Parameters:
    ///   - data: The whole file.
    ///   - scale: The scale to record in the image.
    ///   - maxPixelSize: The longest side of the result, or nil for the full size.
    /// - Returns: The image, and whether it was recovered from a damaged file.
    /// - Throws: What ``decode(_:options:)`` throws.
    @available(*, deprecated, message: "Use decode(_:options:), whose DecodeResult says whether the file was damaged")
    public func decodeReportingDamage(
        _ data: Data, scale: Int, maxPixelSize: Int?
    ) throws -> (image: Image, isDamaged: Bool) {
        let result = try decode(data, options: DecodeOptions(scale: scale, maxPixelSize: maxPixelSize))
        return (result.image, result.isDamaged)
    }
}

import Foundation

/// Animated WebP files (`VP8X` with `ANIM` and `ANMF` chunks) as ``AnimationFrameCursor``s.
///
/// | file                              | animation                                              |
/// |-----------------------------------|--------------------------------------------------------|
/// | `ANMF` duration of 0–10 ms         | shown for 100 ms, as browsers play it                   |
/// | `ANMF` duration of *n* > 10 ms     | shown for *n* ms                                        |
/// | dispose bit set                   | ``AnimationDisposal/background``: cleared to transparent (the `ANIM` background colour is a hint, ignored as libwebp's `WebPAnimDecoder` does) |
/// | blending bit clear                | ``AnimationBlend/over``, with libwebp's integer arithmetic |
/// | `ANIM` loop count *n*              | ``AnimationInfo/loopCount`` *n*; 0 plays forever         |
extension WebPDecoder {
    /// The animation an animated WebP file describes, read without decoding a pixel.
    ///
    /// - Parameter data: The whole file.
    /// - Returns: The canvas, the loop count and every frame; nil for a still file.
    /// - Throws: ``WebPError`` when the file is not WebP, is broken or exceeds a limit.
    public func animationInfo(of data: Data) throws(WebPError) -> AnimationInfo? {
        let container = try container(of: data)
        return container.animation.map { Self.animationInfo(of: container, $0) }
    }

    /// A cursor before the first frame of an animated WebP file.
    ///
    /// - Parameters:
    ///   - data: The whole file.
    ///   - options: The scale and maximum pixel size of every frame; a ``DecodeOptions/header``
    ///     from ``header(of:)`` is reused.
    /// - Returns: The cursor, or nil for a still file; its ``AnimationFrameCursor/nextFrame()``
    ///   throws ``BitmapDecoderError/webp(_:)`` for a frame that does not decode.
    /// - Throws: ``WebPError`` when the file is not WebP, is broken or exceeds a limit.
    public func frameCursor(for data: Data, options: DecodeOptions) throws(WebPError) -> AnimationFrameCursor? {
        let container = try container(of: data, header: options.header)
        guard let animation = container.animation else { return nil }
        let thumbnail = options.maxPixelSize.flatMap {
            ThumbnailSize(width: container.width, height: container.height, maxPixelSize: $0)
        }
        try checkPeak(animationPeakBytes(of: container, fileCount: data.count, thumbnail: thumbnail))
        return AnimationFrameCursor(
            info: Self.animationInfo(of: container, animation),
            reader: WebPFrameReader(data: data, container: container, animation: animation, decoder: self),
            options: options)
    }

    /// The frames of an animated WebP file as bitmaps: see ``frameCursor(for:options:)``.
    ///
    /// - Parameters:
    ///   - data: The whole file.
    ///   - options: The scale and maximum pixel size of every frame.
    /// - Returns: The frames, or nil for a still file.
    /// - Throws: ``WebPError`` when the file is not WebP, is broken or exceeds a limit.
    public func animatedFrames(of data: Data, options: DecodeOptions) throws -> AnimatedFrames<Bitmap>? {
        try frameCursor(for: data, options: options).map { AnimatedFrames(cursor: $0) }
    }

    static func animationInfo(of container: WebPContainer, _ animation: WebPAnimationChunks) -> AnimationInfo {
        let frames = animation.frames.map { frame in
            AnimationFrameInfo(
                nanoseconds: (frame.duration <= 10 ? 100 : frame.duration) * 1_000_000, x: frame.x, y: frame.y,
                width: frame.width, height: frame.height, disposal: frame.disposesToBackground ? .background : .none,
                blend: frame.blends ? .over : .source)
        }
        return AnimationInfo(
            width: container.width, height: container.height, loopCount: animation.loopCount, frames: frames,
            format: .webp)
    }

    /// The peak of a frame cursor: two canvases (the one shown and the one drawn), the largest
    /// frame decoded whole, its sub-images, a thumbnail, and the file.
    func animationPeakBytes(of container: WebPContainer, fileCount: Int, thumbnail: ThumbnailSize?) -> Int {
        let canvas = DecodingPeak.product(container.width, container.height, 4)
        let frames = container.animation?.frames ?? []
        let largest = frames.reduce(0) { max($0, DecodingPeak.product($1.width, $1.height)) }
        let output = thumbnail.map { DecodingPeak.product($0.width, $0.height, 4) } ?? 0
        return DecodingPeak.sum(
            canvas, canvas, DecodingPeak.product(largest, 6), output, DecodingPeak.product(container.width, 8),
            fileCount)
    }
}

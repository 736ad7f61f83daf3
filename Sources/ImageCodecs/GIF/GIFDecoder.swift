import Foundation

/// A pure-Swift GIF decoder (GIF87a and GIF89a) producing ``Bitmap``s and animations.
///
/// A still decode (``decode(_:options:)``) is the first frame composited on the logical screen,
/// what an image view shows; ``frameCursor(for:options:)`` decodes every frame in turn. The file
/// is read as browsers play it:
///
/// | file                                        | animation                                       |
/// |---------------------------------------------|-------------------------------------------------|
/// | delay of 0 or 1 hundredths (0–10 ms)        | shown for 100 ms                                 |
/// | delay of *n* ≥ 2 hundredths                 | shown for *n* × 10 ms                            |
/// | disposal 0, 1 or the undefined 4–7          | ``AnimationDisposal/none``                      |
/// | disposal 2 (restore to background)          | ``AnimationDisposal/background``: cleared to transparent, not to the background colour |
/// | disposal 3 (restore to previous)            | ``AnimationDisposal/previous``                  |
/// | no NETSCAPE2.0 / ANIMEXTS1.0 extension      | ``AnimationInfo/loopCount`` 1: plays once        |
/// | loop extension storing *n*                  | ``AnimationInfo/loopCount`` *n* as stored; 0 plays forever |
/// | logical screen with a side of 0             | that side is the first frame's extent           |
///
/// Every frame blends ``AnimationBlend/over``: its transparent pixels leave the canvas. Frames
/// are clipped to the logical screen. The palette of a frame without a local or global colour
/// table is opaque black; an index past its table is opaque black.
///
/// ## Damage
///
/// A file cut short inside a frame's data, LZW data with a code beyond the table, data that ends
/// before the frame is full, or an invalid minimum code size: the frame is drawn as far as its
/// data goes (the rest transparent) and reported damaged; with
/// ``DecodeOptions/Strictness/strict`` the decode throws the ``GIFError`` instead. Anything after
/// the trailer, and an unknown block where one should start (read as the trailer, as browsers
/// do), is ignored.
///
/// Hostile input cannot make the decoder allocate without bound: the logical screen and every
/// frame are checked against the size limits, and the frame count against
/// ``maximumFrameCount``, while the blocks are walked, before any pixel buffer exists.
public struct GIFDecoder: ImageDecoding {
    /// The decoded image: the composited canvas.
    public typealias Image = Bitmap

    /// The most pixels (`width * height`) the logical screen or a frame may have. Defaults to
    /// 64 Mi (67 108 864), which makes at most a 256 MiB canvas.
    public var maximumPixelCount: Int
    /// The largest width or height of the logical screen and of each frame, in pixels. Defaults
    /// to 32 768; GIF itself allows 65 535.
    public var maximumDimension: Int
    /// The most frames a file may have. Defaults to 4096: a minute and a half of animation at
    /// 20 ms a frame, far above what real files hold, while a file of 10 000 tiny frames is
    /// refused after its 4097th image descriptor.
    public var maximumFrameCount: Int
    /// The most memory one decode may hold at once, as ``decodingPeakBytes(of:options:)``
    /// computes it, before it is refused with ``GIFError/decodeTooLarge(bytesNeeded:limit:)``.
    /// Defaults to 384 MiB, as ``PNGDecoder``'s.
    public var maximumDecodingBytes: Int

    /// Creates a decoder with size limits.
    ///
    /// - Parameters:
    ///   - maximumPixelCount: The most pixels of the logical screen or a frame; at least 1.
    ///     Defaults to 64 Mi.
    ///   - maximumDimension: The largest width or height; at least 1. Defaults to 32 768.
    ///   - maximumFrameCount: The most frames; at least 1. Defaults to 4096.
    ///   - maximumDecodingBytes: The most memory one decode may hold at once; at least 1.
    ///     Defaults to 384 MiB.
    public init(
        maximumPixelCount: Int = 67_108_864, maximumDimension: Int = 32_768, maximumFrameCount: Int = 4096,
        maximumDecodingBytes: Int = 402_653_184
    ) {
        ImageSizeLimit.requireValid(
            maximumPixelCount: maximumPixelCount, maximumDimension: maximumDimension,
            maximumDecodingBytes: maximumDecodingBytes)
        precondition(maximumFrameCount >= 1, "maximumFrameCount must be at least 1")
        self.maximumPixelCount = maximumPixelCount
        self.maximumDimension = maximumDimension
        self.maximumFrameCount = maximumFrameCount
        self.maximumDecodingBytes = maximumDecodingBytes
    }

    /// The animation a GIF file describes, read without decoding a pixel.
    ///
    /// - Parameter data: The whole file.
    /// - Returns: The canvas (the logical screen), the loop count and every frame.
    /// - Throws: ``GIFError`` when the file is not a GIF, has no frame or exceeds a limit.
    /// - Complexity: O(`data.count`).
    public func animationInfo(of data: Data) throws(GIFError) -> AnimationInfo {
        Self.animationInfo(of: try container(of: data))
    }

    /// A cursor before the first frame of a GIF file.
    ///
    /// - Parameters:
    ///   - data: The whole file.
    ///   - options: The scale and maximum pixel size of every frame, and the strictness; a
    ///     ``DecodeOptions/header`` from ``header(of:)`` is reused.
    /// - Returns: The cursor; its ``AnimationFrameCursor/nextFrame()`` throws
    ///   ``BitmapDecoderError/gif(_:)`` for damage under ``DecodeOptions/Strictness/strict``.
    /// - Throws: ``GIFError`` when the file is not a GIF, has no frame or exceeds a limit.
    public func frameCursor(for data: Data, options: DecodeOptions) throws(GIFError) -> AnimationFrameCursor {
        let container = try container(of: data, header: options.header)
        try checkPeak(peakBytes(of: container, fileCount: data.count, maxPixelSize: options.maxPixelSize))
        return AnimationFrameCursor(
            info: Self.animationInfo(of: container),
            reader: GIFFrameReader(data: data, container: container, strictness: options.strictness),
            options: options)
    }

    /// The frames of a GIF file as bitmaps: see ``frameCursor(for:options:)``.
    ///
    /// - Parameters:
    ///   - data: The whole file.
    ///   - options: The scale and maximum pixel size of every frame, and the strictness.
    /// - Returns: The frames (a GIF of one frame too).
    /// - Throws: ``GIFError`` when the file is not a GIF, has no frame or exceeds a limit.
    public func animatedFrames(of data: Data, options: DecodeOptions) throws -> AnimatedFrames<Bitmap>? {
        AnimatedFrames(cursor: try frameCursor(for: data, options: options))
    }

    /// The file's blocks, from the header's parse when it carries one.
    func container(of data: Data, header: ImageHeader? = nil) throws(GIFError) -> GIFContainer {
        if case .gif(let container) = header?.parsed { return container }
        let limits = GIFContainer.Limits(
            maximumDimension: maximumDimension, maximumPixelCount: maximumPixelCount,
            maximumFrameCount: maximumFrameCount)
        return try data.withUnsafeBytes { bytes in
            Result(typedCatching: { () throws(GIFError) in try GIFContainer(reading: bytes, limits: limits) })
        }.typedGet()
    }

    static func animationInfo(of container: GIFContainer) -> AnimationInfo {
        AnimationInfo(
            width: container.canvasWidth, height: container.canvasHeight, loopCount: container.loopCount,
            frames: container.frames.map(\.animationFrame), format: .gif)
    }
}

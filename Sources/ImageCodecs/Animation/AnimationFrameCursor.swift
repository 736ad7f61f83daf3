/// Decodes an animated file's frames in order, keeping the composition state between them, so
/// frame *n* + 1 costs one frame's decode, never a replay of frames 0…*n*.
///
/// ```swift
/// var cursor = try BitmapDecoder().frameCursor(for: data, options: DecodeOptions())!
/// while !cursor.isFinished {
///     let frame = try cursor.nextFrame().image  // the whole canvas, composited
/// }
/// ```
///
/// The cursor is a value: a copy is a keyframe. Keep one (it costs ``retainedBytes``) to decode
/// again from that frame on without starting over; a cursor that has decoded nothing yet costs
/// nothing but the file's bytes, which it shares.
public struct AnimationFrameCursor: Sendable {
    /// The animation the frames belong to.
    public let info: AnimationInfo
    /// The frame the next call to ``nextFrame()`` decodes; ``AnimationInfo/frameCount`` once
    /// every frame has been.
    public private(set) var nextFrameIndex = 0
    private var canvas: AnimationCanvas
    private var reader: any AnimationFrameReading
    private let scale: Int
    private let maxPixelSize: Int?

    /// A cursor before the first frame of `info`, decoding with `reader` into frames recording
    /// the options' scale, reduced to their `maxPixelSize`.
    package init(info: AnimationInfo, reader: any AnimationFrameReading, options: DecodeOptions) {
        precondition(options.scale >= 1, "scale must be at least 1")
        precondition(options.maxPixelSize.map { $0 >= 1 } ?? true, "maxPixelSize must be at least 1")
        self.info = info
        self.reader = reader
        canvas = AnimationCanvas(width: info.width, height: info.height)
        scale = options.scale
        maxPixelSize = options.maxPixelSize
    }

    /// Whether every frame has been decoded.
    public var isFinished: Bool { nextFrameIndex == info.frameCount }

    /// The bytes a copy of this cursor keeps beyond the file's: the canvas and the rectangle
    /// saved for a frame disposed to ``AnimationDisposal/previous``.
    public var retainedBytes: Int { canvas.retainedBytes }

    /// The size of every frame this cursor returns: the canvas, or its thumbnail size.
    public var framePixelSize: (width: Int, height: Int) {
        guard let maxPixelSize,
            let size = ThumbnailSize(width: info.width, height: info.height, maxPixelSize: maxPixelSize)
        else { return (info.width, info.height) }
        return (size.width, size.height)
    }

    /// Decodes the next frame and returns the canvas as it is shown then.
    ///
    /// - Returns: The composited frame (RGBA8, reduced to the options' `maxPixelSize`), and
    ///   whether the file was damaged inside it.
    /// - Throws: The format decoder's error, wrapped; the cursor is then where it was.
    public mutating func nextFrame() throws(BitmapDecoderError) -> DecodeResult<Bitmap> {
        precondition(!isFinished, "every frame has been decoded")
        var drawn = canvas
        if nextFrameIndex > 0 { drawn.dispose(after: info.frames[nextFrameIndex - 1]) }
        drawn.prepare(for: info.frames[nextFrameIndex])
        let isDamaged = try reader.composeFrame(nextFrameIndex, of: info, onto: &drawn)
        canvas = drawn
        nextFrameIndex += 1
        return DecodeResult(image: canvas.bitmap(scale: scale, maxPixelSize: maxPixelSize), isDamaged: isDamaged)
    }
}

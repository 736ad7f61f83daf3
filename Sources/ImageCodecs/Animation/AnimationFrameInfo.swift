/// One frame of an animation, as its file describes it before any pixel is decoded.
public struct AnimationFrameInfo: Sendable, Equatable {
    /// How long the frame is shown, as browsers play it: each format's rule for short delays is
    /// applied already (see the format's decoder).
    public var duration: Duration
    /// The left edge of the frame's rectangle on the canvas, in pixels.
    public var x: Int
    /// The top edge of the frame's rectangle on the canvas, in pixels.
    public var y: Int
    /// The width of the frame's rectangle, in pixels (it may extend past the canvas: the part
    /// outside is not drawn).
    public var width: Int
    /// The height of the frame's rectangle, in pixels.
    public var height: Int
    /// What happens to the rectangle after the frame is shown.
    public var disposal: AnimationDisposal
    /// How the frame's pixels meet the canvas.
    public var blend: AnimationBlend

    /// A frame.
    ///
    /// - Parameters:
    ///   - duration: How long it is shown.
    ///   - x: The left edge of its rectangle on the canvas.
    ///   - y: The top edge of its rectangle.
    ///   - width: The rectangle's width.
    ///   - height: The rectangle's height.
    ///   - disposal: What happens to the rectangle after it is shown.
    ///   - blend: How its pixels meet the canvas.
    public init(
        duration: Duration, x: Int, y: Int, width: Int, height: Int, disposal: AnimationDisposal,
        blend: AnimationBlend
    ) {
        self.duration = duration
        self.x = x
        self.y = y
        self.width = width
        self.height = height
        self.disposal = disposal
        self.blend = blend
    }
}

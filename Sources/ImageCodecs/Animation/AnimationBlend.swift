/// How a frame's pixels meet the canvas under them: APNG's `blend_op`. A GIF frame blends
/// ``over``: its transparent pixels leave the canvas as it is.
public enum AnimationBlend: Sendable, Equatable {
    /// The frame's pixels replace the rectangle's, alpha included.
    case source
    /// The frame is composited over the rectangle (straight alpha, "over" as APNG defines it).
    case over
}

/// What happens to a frame's rectangle once the frame has been shown, before the next one is
/// drawn: GIF's disposal method and APNG's `dispose_op`.
public enum AnimationDisposal: Sendable, Equatable {
    /// The frame stays: the next one is drawn over it.
    case none
    /// The rectangle is cleared to transparent black, as browsers do (GIF's "restore to
    /// background"; the background colour of a GIF's logical screen is not used).
    case background
    /// The rectangle goes back to what it was before the frame was drawn.
    case previous
}

import Foundation

/// One frame of an animation, as its file describes it before any pixel is decoded.
///
/// Times are `TimeInterval`s, as UIKit's are: Swift's `Duration` needs iOS 16 and macOS 13, and
/// the package supports iOS 15 and macOS 12. They are kept as whole nanoseconds, so sums of
/// frame delays are exact.
public struct AnimationFrameInfo: Sendable, Equatable {
    /// How long the frame is shown, in nanoseconds.
    package var nanoseconds: Int
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

    /// How long the frame is shown, in seconds, as browsers play it: each format's rule for
    /// short delays is applied already (see the format's decoder).
    public var duration: TimeInterval { Double(nanoseconds) / 1e9 }

    /// A frame.
    ///
    /// - Parameters:
    ///   - duration: How long it is shown, in seconds; not negative.
    ///   - x: The left edge of its rectangle on the canvas.
    ///   - y: The top edge of its rectangle.
    ///   - width: The rectangle's width.
    ///   - height: The rectangle's height.
    ///   - disposal: What happens to the rectangle after it is shown.
    ///   - blend: How its pixels meet the canvas.
    public init(
        duration: TimeInterval, x: Int, y: Int, width: Int, height: Int, disposal: AnimationDisposal,
        blend: AnimationBlend
    ) {
        precondition(duration >= 0 && duration < 1e9, "a frame's duration is between 0 and a billion seconds")
        self.init(
            nanoseconds: Int((duration * 1e9).rounded()), x: x, y: y, width: width, height: height,
            disposal: disposal, blend: blend)
    }

    /// A frame shown for `nanoseconds`.
    package init(
        nanoseconds: Int, x: Int, y: Int, width: Int, height: Int, disposal: AnimationDisposal,
        blend: AnimationBlend
    ) {
        self.nanoseconds = nanoseconds
        self.x = x
        self.y = y
        self.width = width
        self.height = height
        self.disposal = disposal
        self.blend = blend
    }
}

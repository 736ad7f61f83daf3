import Foundation

/// What an animated file says before any frame is decoded: the canvas, the frames and how often
/// they play.
public struct AnimationInfo: Sendable, Equatable {
    /// The canvas width in pixels (GIF's logical screen, APNG's `IHDR` width).
    public var width: Int
    /// The canvas height in pixels.
    public var height: Int
    /// How many times the animation plays: 0 forever. Each format's decoder documents its rule
    /// (a GIF without a loop extension plays once).
    public var loopCount: Int
    /// The frames, in order.
    public var frames: [AnimationFrameInfo]
    /// The file's format.
    public var format: ImageFormat

    /// An animation's description.
    ///
    /// - Parameters:
    ///   - width: The canvas width in pixels.
    ///   - height: The canvas height in pixels.
    ///   - loopCount: How many times it plays; 0 forever.
    ///   - frames: The frames, at least one.
    ///   - format: The file's format.
    public init(width: Int, height: Int, loopCount: Int, frames: [AnimationFrameInfo], format: ImageFormat) {
        precondition(!frames.isEmpty, "an animation has at least one frame")
        self.width = width
        self.height = height
        self.loopCount = loopCount
        self.frames = frames
        self.format = format
    }

    /// The number of frames.
    public var frameCount: Int { frames.count }

    /// How long one pass over every frame takes, in seconds.
    public var loopDuration: TimeInterval { Double(loopNanoseconds) / 1e9 }

    /// How long one pass over every frame takes, in nanoseconds.
    package var loopNanoseconds: Int {
        frames.reduce(0) { $0 + $1.nanoseconds }
    }

    /// The frame shown `elapsed` seconds after the animation started, or nil once a finite
    /// animation has ended (it then stays on its last frame, which ``frameCount`` − 1 gives).
    ///
    /// - Parameter elapsed: The time since the first frame was shown, in seconds; not negative.
    /// - Returns: The frame's index.
    public func frameIndex(at elapsed: TimeInterval) -> Int? {
        // Past 292 years in nanoseconds an Int overflows: any later time is as late.
        frameIndex(atNanoseconds: elapsed >= 9e18 / 1e9 ? Int.max : Int((max(elapsed, 0) * 1e9).rounded(.down)))
    }

    /// ``frameIndex(at:)`` in whole nanoseconds.
    package func frameIndex(atNanoseconds elapsed: Int) -> Int? {
        let loop = loopNanoseconds
        guard loop > 0 else { return loopCount == 1 ? nil : 0 }
        let passes = elapsed / loop
        if loopCount != 0, passes >= loopCount { return nil }
        var remaining = elapsed % loop
        for (index, frame) in frames.enumerated() {
            if remaining < frame.nanoseconds { return index }
            remaining -= frame.nanoseconds
        }
        return frames.count - 1
    }
}

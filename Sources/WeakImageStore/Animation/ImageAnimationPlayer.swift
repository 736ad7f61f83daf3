import Foundation

/// Plays an ``ImageAnimation`` against a clock: at each refresh of the display it says which
/// frame to draw, skipping frames that are late rather than slowing the clock, and has the frames
/// due next decoded on the store's loading threads before they are due.
///
/// Times are seconds on any clock whose origin the calls share (`CADisplayLink.timestamp`,
/// `ProcessInfo.systemUptime`, a test's simulated time).
///
/// The player is the platform-free part of `AnimatedImageView` and `StoreAnimatedImage`; drive it
/// from any clock (`CADisplayLink`'s timestamps, a test's simulated time) and from one thread.
///
/// ```swift
/// let player = ImageAnimationPlayer(try store.loadAnimation(for: .named("sticker")))
/// player.play(at: now)
/// // on each display refresh:
/// if let frame = player.image(at: now) { draw(frame) }
/// ```
public final class ImageAnimationPlayer<Image: StorableImage> {
    /// The animation played.
    public let animation: ImageAnimation<Image>
    /// Whether the clock runs: between ``play(at:)`` and ``pause(at:)``, until a finite animation
    /// has played its loops.
    public private(set) var isPlaying = false
    /// Shows the first frame only, for people who asked their system to reduce motion.
    public var reducesMotion = false
    /// The priority of the decodes the player asks for. Defaults to `.high`: it is on screen.
    public var priority: ImageLoadPriority = .high
    /// The frames that were due but not decoded in time: the previous frame stayed on screen.
    public private(set) var lateFrames = 0
    /// The frame drawn last, if any.
    public private(set) var displayedFrameIndex: Int?

    /// The clock time at which elapsed time was 0, while playing.
    private var origin: TimeInterval?
    /// The elapsed time when paused.
    private var pausedElapsed: TimeInterval = 0
    /// The last frame counted late, so a frame is counted once however many refreshes wait for it.
    private var lastLateFrame: Int?

    /// A player of `animation`, paused on its first frame.
    ///
    /// - Parameter animation: The animation to play.
    public init(_ animation: ImageAnimation<Image>) {
        self.animation = animation
    }

    /// Starts or resumes the clock at `now`.
    ///
    /// - Parameter now: The clock's time in seconds, in any origin the later calls share.
    public func play(at now: TimeInterval) {
        guard !isPlaying else { return }
        origin = now - pausedElapsed
        isPlaying = true
    }

    /// Stops the clock at `now`; ``play(at:)`` resumes from the same frame.
    ///
    /// - Parameter now: The clock's time in seconds.
    public func pause(at now: TimeInterval) {
        guard isPlaying, let origin else { return }
        pausedElapsed = now - origin
        isPlaying = false
    }

    /// The frame to draw at `now`: the one due if it is decoded, else the one on screen (the late
    /// frame is counted and asked for at once).
    ///
    /// - Parameter now: The clock's time in seconds.
    /// - Returns: The image to draw, or nil before the first frame is decoded.
    public func image(at now: TimeInterval) -> Image? {
        let due = dueFrame(at: now)
        if let image = animation.cachedFrame(at: due) {
            if due != displayedFrameIndex {
                displayedFrameIndex = due
                animation.show(due, image)
            }
            if !reducesMotion { animation.prefetchFrames(priority: priority) }
            return image
        }
        if lastLateFrame != due {
            lastLateFrame = due
            lateFrames += 1
            animation.recordLateFrame()
            animation.movePlayhead(to: due)
            animation.prefetchFrames(priority: .veryHigh)
        }
        return displayedFrameIndex.flatMap { animation.cachedFrame(at: $0) }
    }

    /// The frame the clock says is due at `now`.
    private func dueFrame(at now: TimeInterval) -> Int {
        guard !reducesMotion else { return 0 }
        let elapsed = isPlaying ? now - (origin ?? now) : pausedElapsed
        guard let index = animation.frameIndex(at: elapsed) else {
            // A finite animation ends on its last frame.
            if isPlaying { pause(at: now) }
            return animation.frameCount - 1
        }
        return index
    }
}

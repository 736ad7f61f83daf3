import Foundation

/// An animated image — a GIF, an APNG — shared by every view that shows it, its frames decoded on
/// demand within the store's frame budget.
///
/// Get one from ``ImageStore/loadAnimation(for:)`` or ``ImageStore/animation(for:priority:)``:
/// while anyone holds it, every request for the same image (any spelling of a name, the file's
/// path, the URL) returns this instance, with the frames it has decoded; it is freed with its last
/// user. A still image is an animation of one frame, shown forever.
///
/// Frames are decoded in order from where the last decode stopped, a keyframe, or the start —
/// never replaying from the first frame when the next one is wanted. An animation whose frames
/// all fit in the budget keeps them, so later loops decode nothing; a larger one keeps a window
/// ahead of its playhead (see ``ImageAnimationPlayer``), decoded on the store's loading threads
/// before it is due.
public final class ImageAnimation<Image: StorableImage>: Sendable {
    /// The animation as its file describes it: canvas, frames, durations, loops.
    public let info: AnimationInfo
    /// The size of every frame, in pixels: the canvas, or its thumbnail size for a request with
    /// a `maxPixelSize`.
    public let pixelSize: (width: Int, height: Int)
    /// Reports this animation's death to the stores that count it among their live images.
    package let deathNotifier = DeathNotifier()

    /// The bytes of one decoded frame.
    let frameBytes: Int
    /// The file's bytes the animation keeps to decode from.
    let fileBytes: Int
    let state: Lock<AnimationFrameState<Image>>
    /// Held while a frame decodes: one cursor moves at a time.
    let decodeLock = Lock(())
    let makeImage: @Sendable (Bitmap) throws -> Image
    let budget: FrameBudget
    let queue: FrameDecodeQueue
    /// Counts a decoded frame among the store's live images.
    let countLive: @Sendable (CachedImage) -> Void
    /// The request that first loaded the animation, for error messages.
    let firstRequest = Lock<ImageRequest?>(nil)

    /// An animation of `frames`, or of the one image `still` when the file is not animated.
    init(
        frames: AnimatedFrames<Image>?, still: @autoclosure () throws -> Image,
        stillSize: @autoclosure () -> (width: Int, height: Int),
        fileBytes: Int, budget: FrameBudget,
        queue: FrameDecodeQueue, countLive: @escaping @Sendable (CachedImage) -> Void
    ) throws {
        self.fileBytes = fileBytes
        self.budget = budget
        self.queue = queue
        self.countLive = countLive
        if let frames {
            info = frames.cursor.info
            pixelSize = frames.cursor.framePixelSize
            makeImage = frames.makeImage
            state = Lock(AnimationFrameState(cursor: frames.cursor, start: frames.cursor))
        } else {
            let image = try still()
            let stillSize = stillSize()
            info = AnimationInfo(
                width: stillSize.width, height: stillSize.height, loopCount: 0,
                frames: [
                    AnimationFrameInfo(
                        duration: 0, x: 0, y: 0, width: stillSize.width, height: stillSize.height,
                        disposal: .none, blend: .source)
                ], format: ImageFormat(name: "still"))
            pixelSize = stillSize
            makeImage = { _ in image }
            countLive(CachedImage(image))
            state = Lock(AnimationFrameState(onScreen: (0, image), cursor: nil, start: nil))
        }
        frameBytes = max(pixelSize.width * pixelSize.height * 4, 1)
        let fits = budget.fitsWhole(frameCount: info.frameCount, frameBytes: frameBytes)
        state.withLock { $0.keepsEveryFrame = fits }
        budget.register(self)
    }

    deinit {
        releaseKept()
        budget.unregister(ObjectIdentifier(self))
    }

    /// The number of frames.
    public var frameCount: Int { info.frameCount }

    /// How many times the animation plays: 0 forever.
    public var loopCount: Int { info.loopCount }

    /// How long frame `index` is shown.
    ///
    /// - Parameter index: A frame, from 0 to ``frameCount`` − 1.
    /// - Returns: Its duration in seconds, as browsers play it.
    public func duration(ofFrame index: Int) -> TimeInterval {
        info.frames[index].duration
    }

    /// The frame shown `elapsed` seconds after the animation started, or nil once a finite
    /// animation has ended (it then stays on its last frame).
    ///
    /// - Parameter elapsed: The time since the first frame was shown, in seconds.
    /// - Returns: The frame's index.
    public func frameIndex(at elapsed: TimeInterval) -> Int? {
        info.frameIndex(at: elapsed)
    }
}

extension ImageAnimation: DeathReporting {}

extension ImageAnimation: FrameDropping {
    /// Drops the frames outside the window ahead of the playhead and the keyframes but the last
    /// before it, and keeps only a window from now on: another animation needs the budget.
    func giveBackFrames() {
        let dropped = state.withLock { state -> ([Image], Int) in
            state.keepsEveryFrame = false
            let keyframeBytes = state.keyframes.filter {
                $0.key > state.playhead || $0.key < state.playhead - Self.keyframeInterval
            }
            .reduce(0) { $0 + $1.value.retainedBytes }
            state.keyframes = state.keyframes.filter {
                $0.key <= state.playhead && $0.key >= state.playhead - Self.keyframeInterval
            }
            return (pruneWindow(&state), keyframeBytes)
        }
        if dropped.1 > 0 { budget.release(dropped.1, isFrame: false) }
        _ = dropped.0
    }

    /// Drops every kept frame and keyframe, all but the frame on screen.
    func dropFramesOffScreen() {
        releaseKept()
    }

    /// Empties the kept frames and keyframes and gives their bytes back to the budget.
    private func releaseKept() {
        let kept = state.withLock { $0.takeKept() }
        budget.release(kept.frames.count * frameBytes + kept.keyframeBytes, frames: kept.frames.count)
        // The frames die here, outside the lock.
    }
}

/// What one animation keeps between frame decodes, under its lock: the frames it kept within the
/// store's frame budget, the frame on screen, and cursors to decode from.
struct AnimationFrameState<Image: StorableImage>: Sendable {
    /// Frames kept, each with its bytes reserved in the budget.
    var frames: [Int: Image] = [:]
    /// The frame a player shows now, kept outside the budget: it exists anyway.
    var onScreen: (index: Int, image: Image)?
    /// Where the last decode stopped; nil for a still image.
    var cursor: AnimationFrameCursor?
    /// The cursor before the first frame: starting over costs nothing but the file.
    let start: AnimationFrameCursor?
    /// Cursor copies by the frame they decode next, each with its bytes reserved in the budget.
    var keyframes: [Int: AnimationFrameCursor] = [:]
    /// The frame the player last asked for: frames behind it are the first to go.
    var playhead = 0
    /// Whether the animation keeps every frame (they all fit in the budget when it was made) or a
    /// window ahead of the playhead (since, or when another animation needed the room).
    var keepsEveryFrame = false
    /// The priority of the prefetch step queued, so one is not queued twice.
    var prefetchPriority: ImageLoadPriority?

    /// The frame at `index` if it is kept or on screen.
    func frame(at index: Int) -> Image? {
        if let image = frames[index] { return image }
        if let onScreen, onScreen.index == index { return onScreen.image }
        return nil
    }

    /// The cursor closest before `index`: the last position, a keyframe, or the start.
    func cursor(reaching index: Int) -> AnimationFrameCursor? {
        var best = start
        for candidate in [cursor] + keyframes.values.map(Optional.some) {
            guard let candidate, candidate.nextFrameIndex <= index else { continue }
            if candidate.nextFrameIndex > best?.nextFrameIndex ?? -1 { best = candidate }
        }
        return best
    }

    /// Empties the kept frames and keyframes, the frame on screen aside.
    ///
    /// - Returns: The frames, to be freed outside the lock, and the keyframes' bytes.
    mutating func takeKept() -> (frames: [Image], keyframeBytes: Int) {
        defer {
            frames = [:]
            keyframes = [:]
        }
        return (Array(frames.values), keyframes.values.reduce(0) { $0 + $1.retainedBytes })
    }
}

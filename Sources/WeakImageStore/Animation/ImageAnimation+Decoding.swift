import Foundation

extension ImageAnimation {
    /// Frames between two keyframes a larger animation remembers, budget allowing.
    static var keyframeInterval: Int { 16 }

    /// How many frames ahead of its playhead an animation keeps when it does not keep them all:
    /// half its share of the budget among the animations alive (the other half leaves room for
    /// keyframes and for animations to come), at least 2 and at most 16.
    var window: Int {
        let share = budget.limit / max(budget.animationCount, 1) / frameBytes
        return min(max(share / 2, 2), 16, frameCount)
    }

    /// Decodes on from the closest position until frame `target`, keeping frames and keyframes
    /// as the budget allows. Runs under ``decodeLock``.
    func decode(upTo target: Int) throws(ImageStoreError) -> Image {
        if let image = cachedFrame(at: target) { return image }
        guard var cursor = state.withLock({ $0.cursor(reaching: target) }) else {
            preconditionFailure("a still image's one frame is always kept")
        }
        while true {
            let index = cursor.nextFrameIndex
            let image: Image
            do {
                image = try makeImage(try cursor.nextFrame().image)
            } catch {
                throw undecodable(frame: index, error)
            }
            budget.recordDecode()
            countLive(CachedImage(image))
            let window = window
            let refused = state.withLock { keep(image, at: index, after: cursor, window: window, in: &$0) }
            if refused {
                // Other animations give back what lies outside their windows, then this frame,
                // which the playhead needs next, takes the room (outside any animation's lock).
                budget.makeRoom(except: ObjectIdentifier(self))
                state.withLock { state in
                    if state.frames[index] == nil, budget.reserve(frameBytes) { state.frames[index] = image }
                }
            }
            if index == target { return image }
        }
    }

    /// Marks frame `index` as the one on screen and moves the playhead there.
    func show(_ index: Int, _ image: Image) {
        let window = window
        let dropped = state.withLock { state -> [Image] in
            state.onScreen = (index, image)
            state.playhead = index
            return pruneWindow(&state, window: window)
        }
        _ = dropped
    }

    /// Moves the playhead to frame `index`, due but not decoded: the window follows it.
    func movePlayhead(to index: Int) {
        let window = window
        let dropped = state.withLock { state -> [Image] in
            state.playhead = index
            return pruneWindow(&state, window: window)
        }
        _ = dropped
    }

    /// Has the frames of the window ahead of the playhead that are not kept decoded on the
    /// loading threads, one frame per step: each step goes to the back of its priority's queue,
    /// so the animations on screen take turns and each gets its next frame first.
    func prefetchFrames(priority: ImageLoadPriority) {
        guard frameCount > 1 else { return }
        let submits = state.withLock { state in
            guard state.prefetchPriority.map({ $0 < priority }) ?? true else { return false }
            state.prefetchPriority = priority
            return true
        }
        if submits { queue.submit(priority: priority) { [weak self] in self?.prefetchStep(priority) } }
    }

    /// Decodes the first frame of the window that is not kept, then queues the next step.
    private func prefetchStep(_ priority: ImageLoadPriority) {
        let window = window
        let next = state.withLock { state -> Int? in
            let ahead = state.keepsEveryFrame ? min(window, frameCount - 1) : window - 1
            let frames = frameCount
            let missing = (0...ahead).map { (state.playhead + $0) % frames }.first { state.frame(at: $0) == nil }
            if missing == nil, state.prefetchPriority == priority { state.prefetchPriority = nil }
            return missing
        }
        // A frame that cannot be decoded fails again, with its error, when it is due.
        guard let next, (try? frame(at: next)) != nil else {
            state.withLock { if $0.prefetchPriority == priority { $0.prefetchPriority = nil } }
            return
        }
        queue.submit(priority: priority) { [weak self] in self?.prefetchStep(priority) }
    }

    /// Keeps frame `index` if the policy and the budget allow, moves the cursor and remembers a
    /// keyframe.
    ///
    /// - Returns: Whether the frame was wanted but the budget refused it.
    private func keep(
        _ image: Image, at index: Int, after cursor: AnimationFrameCursor, window: Int,
        in state: inout AnimationFrameState<Image>
    ) -> Bool {
        state.cursor = cursor
        let wanted =
            state.frames[index] == nil
            && (state.keepsEveryFrame || isInWindow(index, playhead: state.playhead, window: window))
        var refused = false
        if wanted {
            if budget.reserve(frameBytes) {
                state.frames[index] = image
            } else {
                refused = true
            }
        }
        let next = cursor.nextFrameIndex
        if !state.keepsEveryFrame, next % Self.keyframeInterval == 0, next < frameCount, state.keyframes[next] == nil,
            budget.reserve(cursor.retainedBytes, isFrame: false)
        {
            state.keyframes[next] = cursor
        }
        _ = pruneWindow(&state, window: window)
        return refused
    }

    /// Drops the kept frames outside the window ahead of the playhead, unless every frame is kept.
    func pruneWindow(_ state: inout AnimationFrameState<Image>, window: Int? = nil) -> [Image] {
        guard !state.keepsEveryFrame else { return [] }
        let window = window ?? self.window
        let playhead = state.playhead
        let leaving = state.frames.keys.filter { !isInWindow($0, playhead: playhead, window: window) }
        return leaving.compactMap { index in
            budget.release(frameBytes)
            return state.frames.removeValue(forKey: index)
        }
    }

    /// Whether `index` is among the `window` frames from `playhead` on, in playing order.
    private func isInWindow(_ index: Int, playhead: Int, window: Int) -> Bool {
        (index - playhead + frameCount) % frameCount < window
    }

    private func undecodable(frame index: Int, _ error: any Error) -> ImageStoreError {
        let reason = "frame \(index) of \(frameCount): \(error)"
        guard let request = firstRequest.withLock({ $0 }) else {
            return .decodingFailed(path: "an animation", reason: reason)
        }
        return .undecodable(request, reason: reason)
    }

    /// Remembers the first request that loaded the animation, to name it in errors.
    func noteRequest(_ request: ImageRequest) {
        firstRequest.withLock { if $0 == nil { $0 = request } }
    }

    /// Counts a frame that was due but not decoded in time.
    func recordLateFrame() {
        budget.recordLateFrame()
    }
}

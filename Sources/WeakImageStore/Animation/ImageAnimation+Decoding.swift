import Foundation

extension ImageAnimation {
    /// Frames between two keyframes a larger animation remembers, budget allowing.
    static var keyframeInterval: Int { 16 }

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
            let dropped = state.withLock { keep(image, at: index, after: cursor, in: &$0) }
            // Frames that left the window die here, outside the lock.
            _ = dropped
            if index == target { return image }
        }
    }

    /// Marks frame `index` as the one on screen and moves the playhead there.
    func show(_ index: Int, _ image: Image) {
        let dropped = state.withLock { state -> [Image] in
            state.onScreen = (index, image)
            state.playhead = index
            return pruneWindow(&state)
        }
        _ = dropped
    }

    /// Decodes, on the loading threads, the frames of the window ahead of `index` that are not
    /// kept, so a player finds them when they are due.
    func prefetchFrames(after index: Int, priority: ImageLoadPriority) {
        guard frameCount > 1 else { return }
        let ahead = keepsEveryFrame ? min(window, frameCount - 1) : window - 1
        let missing = state.withLock { state -> [Int] in
            let wanted = (1...max(ahead, 1)).map { (index + $0) % frameCount }.filter { state.frame(at: $0) == nil }
            guard let last = wanted.last, state.prefetching != last else { return [] }
            state.prefetching = last
            return wanted
        }
        guard !missing.isEmpty else { return }
        queue.submit(priority: priority) { [weak self] in
            guard let self else { return }
            for frame in missing where cachedFrame(at: frame) == nil {
                // A frame that cannot be decoded fails again, with its error, when it is due.
                guard (try? self.frame(at: frame)) != nil else { break }
            }
            state.withLock { if $0.prefetching == missing.last { $0.prefetching = nil } }
        }
    }

    /// Keeps frame `index` if the policy and the budget allow, moves the cursor and remembers a
    /// keyframe; returns the frames that left the window.
    private func keep(
        _ image: Image, at index: Int, after cursor: AnimationFrameCursor, in state: inout AnimationFrameState<Image>
    ) -> [Image] {
        state.cursor = cursor
        if state.frames[index] == nil, keepsEveryFrame || isInWindow(index, playhead: state.playhead),
            budget.reserve(frameBytes)
        {
            state.frames[index] = image
        }
        let next = cursor.nextFrameIndex
        if !keepsEveryFrame, next % Self.keyframeInterval == 0, next < frameCount, state.keyframes[next] == nil,
            budget.reserve(cursor.retainedBytes, isFrame: false)
        {
            state.keyframes[next] = cursor
        }
        return keepsEveryFrame ? [] : pruneWindow(&state)
    }

    /// Drops the kept frames outside the window ahead of the playhead.
    private func pruneWindow(_ state: inout AnimationFrameState<Image>) -> [Image] {
        guard !keepsEveryFrame else { return [] }
        let playhead = state.playhead
        let leaving = state.frames.keys.filter { !isInWindow($0, playhead: playhead) }
        return leaving.compactMap { index in
            budget.release(frameBytes)
            return state.frames.removeValue(forKey: index)
        }
    }

    /// Whether `index` is among the ``window`` frames from `playhead` on, in playing order.
    private func isInWindow(_ index: Int, playhead: Int) -> Bool {
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

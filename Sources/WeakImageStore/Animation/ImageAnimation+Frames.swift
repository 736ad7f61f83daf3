import Foundation

extension ImageAnimation {
    /// Frame `index`, decoded now on this thread if it is not kept.
    ///
    /// Decoding continues from the closest position before the frame (where the last decode
    /// stopped, a keyframe, or the start); frames on the way are kept as the budget allows.
    ///
    /// - Parameter index: A frame, from 0 to ``frameCount`` − 1.
    /// - Returns: The composited frame.
    /// - Throws: ``ImageStoreError/undecodable(_:reason:)`` naming the frame, if the file is
    ///   damaged before it (a frame cut short is shown as far as it decoded, as browsers do).
    public func frame(at index: Int) throws(ImageStoreError) -> Image {
        precondition((0..<frameCount).contains(index), "frame \(index) of \(frameCount)")
        if let image = cachedFrame(at: index) { return image }
        let result = decodeLock.withLock { _ in
            Result(typedCatching: { () throws(ImageStoreError) -> Image in try decode(upTo: index) })
        }
        return try result.typedGet()
    }

    /// Frame `index`, decoded on the store's loading threads if it is not kept.
    ///
    /// - Parameters:
    ///   - index: A frame, from 0 to ``frameCount`` − 1.
    ///   - priority: Where the decode goes in the queue. Defaults to `.normal`.
    /// - Returns: The composited frame.
    /// - Throws: ``ImageStoreError/cancelled`` if the task is cancelled before the decode
    ///   starts, or why the frame cannot be decoded.
    nonisolated(nonsending) public func fetchFrame(
        at index: Int, priority: ImageLoadPriority = .normal
    ) async throws(ImageStoreError) -> Image {
        precondition((0..<frameCount).contains(index), "frame \(index) of \(frameCount)")
        if let image = cachedFrame(at: index) { return image }
        let result = await FrameWaiter<Image>().wait(in: queue, priority: priority) {
            Result(typedCatching: { () throws(ImageStoreError) -> Image in try self.frame(at: index) })
        }
        return try result.typedGet()
    }

    /// Frame `index` if it is kept or on screen; never decodes.
    ///
    /// - Parameter index: A frame, from 0 to ``frameCount`` − 1.
    /// - Returns: The frame, or nil.
    public func cachedFrame(at index: Int) -> Image? {
        state.withLock { $0.frame(at: index) }
    }
}

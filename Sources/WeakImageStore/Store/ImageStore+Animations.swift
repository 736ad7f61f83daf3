import Foundation

/// Animated images: one ``ImageAnimation`` per image while anyone uses it, its frames decoded on
/// demand within the store's frame budget.
///
/// An animation is looked up, fetched, coalesced and cancelled exactly as an image is (every
/// source, the disk cache, `maxPixelSize`), but held weakly only: it is freed with its last user,
/// whatever the store's policy. ``image(for:)`` on an animated file keeps returning its first
/// frame, as `UIImage(named:)` does.
extension ImageStore {
    /// The animation `request` names, loaded now on this thread if nobody holds it, with its first
    /// frame decoded.
    ///
    /// ```swift
    /// let sticker = try store.loadAnimation(for: .named("stickers/wave.gif", maxPixelSize: 240))
    /// let player = ImageAnimationPlayer(sticker)
    /// ```
    ///
    /// - Parameter request: The file, and the size every frame is decoded at.
    /// - Returns: The shared animation; a still image gives an animation of one frame.
    /// - Throws: An ``ImageStoreError``, as ``loadImage(for:)`` does.
    public func loadAnimation(for request: ImageRequest) throws(ImageStoreError) -> ImageAnimation<Image> {
        let animation = unsafeDowncast(try animations.load(request).object, to: ImageAnimation<Image>.self)
        animation.noteRequest(request)
        return animation
    }

    /// The animation `request` names, loaded on the store's loading threads if nobody holds it,
    /// with its first frame decoded.
    ///
    /// - Parameters:
    ///   - request: The file, and the size every frame is decoded at.
    ///   - priority: Where the load goes in the queue. Defaults to `.normal`.
    /// - Returns: The shared animation.
    /// - Throws: ``ImageStoreError/cancelled`` when the task is cancelled, or why there is no
    ///   animation.
    nonisolated(nonsending) public func animation(
        for request: ImageRequest, priority: ImageLoadPriority = .normal
    ) async throws(ImageStoreError) -> ImageAnimation<Image> {
        let loaded = try await animations.load(request, priority: priority)
        let animation = unsafeDowncast(loaded.object, to: ImageAnimation<Image>.self)
        animation.noteRequest(request)
        return animation
    }

    /// The animation `request` names if someone holds it now, from memory only; never loads.
    ///
    /// - Parameter request: The file, and the size every frame is decoded at.
    /// - Returns: The shared animation, or nil.
    public func cachedAnimation(for request: ImageRequest) -> ImageAnimation<Image>? {
        guard let cached = animations.cachedImage(request) else { return nil }
        return unsafeDowncast(cached.object, to: ImageAnimation<Image>.self)
    }

    /// The engine that loads animations: the store's fetcher, a weak-only memory, and a decode
    /// that makes an ``ImageAnimation`` with its first frame.
    static func makeAnimationEngine(
        configuration: Configuration, fetcher: ImageFetcher, budget: FrameBudget, queue: FrameDecodeQueue,
        countLive: @escaping @Sendable (CachedImage) -> Void
    ) -> StoreEngine {
        let decoder = configuration.decoder
        return StoreEngine(
            policy: .weak, maximumConcurrentLoads: configuration.maximumConcurrentLoads, fetcher: fetcher,
            decode: { data, options in
                // Only a still image needs its size from the header: an animation's is its canvas.
                func stillSize() -> (width: Int, height: Int) {
                    guard let header = options.header ?? decoder.header(of: data) else { return (0, 0) }
                    let reduced = options.maxPixelSize.flatMap {
                        ThumbnailSize(width: header.width, height: header.height, maxPixelSize: $0)
                    }
                    return reduced.map { ($0.width, $0.height) } ?? (header.width, header.height)
                }
                // An animation whose structure is broken (APNG sequence numbers out of order, say)
                // shows its still image, as browsers do; if that fails too, its error is the load's.
                let frames = try? decoder.animatedFrames(of: data, options: options)
                let animation = try ImageAnimation<Image>(
                    frames: frames,
                    still: try decoder.decode(data, options: options).image, stillSize: stillSize(),
                    fileBytes: data.count, budget: budget, queue: queue, countLive: countLive)
                // The first frame is what a view shows at once: decoded here, on the loading thread.
                try animation.show(0, animation.frame(at: 0))
                countLive(CachedImage(object: animation, cost: data.count))
                return (CachedImage(object: animation, cost: data.count), false)
            },
            readHeader: { data in decoder.header(of: data) },
            peakBytes: { data, options in decoder.decodingPeakBytes(of: data, options: options) },
            maximumConcurrentDecodingBytes: configuration.maximumConcurrentDecodingBytes)
    }
}

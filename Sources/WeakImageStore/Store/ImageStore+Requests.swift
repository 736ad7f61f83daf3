/// Lookups by ``ImageRequest``: every source, every way of asking.
///
/// | call | when | a miss |
/// |---|---|---|
/// | ``image(for:)`` | the image or nil, now | fetches and decodes on the caller's thread |
/// | ``loadImage(for:)`` | the image or why there is none, now | as `image(for:)` |
/// | ``cachedImage(for:)`` | show what memory has, never block | returns nil at once |
/// | ``fetchImage(for:priority:)`` | in `async` code: cells, SwiftUI `.task` | loads on the store's threads while the task waits |
/// | ``prefetch(_:priority:)`` | rows about to appear | loads in the background and holds the images |
///
/// All of them share the caches, the loads in progress and the statistics: a synchronous caller,
/// a task and a prefetch asking for the same image share one load and one instance.
extension ImageStore {
    /// The image for `request`, or nil if there is none or it cannot be loaded.
    ///
    /// A network picture (an `http` or `https` request) is never downloaded here: it is returned
    /// only if memory holds it. See ``loadImage(for:)``.
    ///
    /// - Parameter request: What to load, and at what size.
    /// - Returns: The shared image, or nil.
    /// - Complexity: A hit costs the lookup of the request's source and one of the image.
    @inline(__always)  // into the name and path conveniences: a hit pays for one call, not two
    public func image(for request: ImageRequest) -> Image? {
        try? loadImage(for: request)
    }

    /// The image for `request`, or the reason there is none.
    ///
    /// A miss resolves, fetches and decodes on the caller's thread; a load of the same image
    /// already running on another thread is joined, and a queued one is taken over rather than
    /// waited behind. Use ``fetchImage(for:priority:)`` to keep the caller's thread free.
    ///
    /// **Synchronous lookups never wait on the network**: a network picture that memory does not
    /// hold throws ``ImageStoreError/notInMemoryOrOnDisk(_:)`` at once, without a request. A
    /// blocked main thread waiting on a download is the bug this store exists to prevent.
    ///
    /// - Parameter request: What to load, and at what size.
    /// - Returns: The shared image.
    /// - Throws: An ``ImageStoreError`` saying why: for names `invalidName`, `notFound`; for
    ///   files `unreadable`, `fileTooLarge`, `decodingFailed`; for providers `providerFailed`,
    ///   `dataTooLarge`, `undecodable`; for network pictures `notInMemoryOrOnDisk`; for schemes
    ///   other than `http`, `https` and `file` `unsupportedURL`.
    @inline(__always)  // into the name and path conveniences: a hit pays for one call, not two
    public func loadImage(for request: ImageRequest) throws(ImageStoreError) -> Image {
        cast(try engine.load(request))
    }

    /// The image for `request` if the store holds it now, from memory only.
    ///
    /// Never touches the file system or a provider, never decodes, never waits for a load: show
    /// its result at once, and load asynchronously when it is nil.
    ///
    /// ```swift
    /// cell.imageView.image = store.cachedImage(for: request)   // nil: not loaded yet
    /// ```
    ///
    /// - Parameter request: What to look for.
    /// - Returns: The shared image, or nil if it is not in memory, or its name was never resolved,
    ///   or (for a thumbnail) its image's size is not known yet.
    /// - Complexity: As a synchronous hit.
    @inline(__always)  // into the name and path conveniences: a hit pays for one call, not two
    public func cachedImage(for request: ImageRequest) -> Image? {
        // Not `Optional.map`: generic over `Image`, it would look up metadata at run time.
        guard let image = engine.cachedImage(request) else { return nil }
        return cast(image)
    }

    /// The image for `request`, loaded on the store's loading threads if it is not in memory.
    ///
    /// A hit returns at once on the caller's executor, without suspending. A miss resolves,
    /// fetches and decodes on the store's loading threads, never on the caller's, while the
    /// caller is suspended. Queued loads run by the highest priority among their waiters, the
    /// newest first within a priority. A network picture is downloaded by the store's
    /// ``ImageDownloader`` (one transfer per URL, its own bounded queue by the same priorities)
    /// without holding a loading thread, then decoded on one.
    ///
    /// ```swift
    /// let task = Task { @MainActor in
    ///     imageView.image = try? await store.fetchImage(for: .named("photos/\(id)", maxPixelSize: 300), priority: .high)
    /// }
    /// // When the cell is reused: task.cancel()
    /// ```
    ///
    /// - Parameters:
    ///   - request: What to load, and at what size.
    ///   - priority: Where the load goes in the queue. Defaults to `.normal`.
    /// - Returns: The shared image.
    /// - Throws: ``ImageStoreError/cancelled`` as soon as the task is cancelled (the load goes on
    ///   only if someone else still waits for it: otherwise a queued load is dropped and a
    ///   running one stops part-way, within a few kilobytes of data for the built-in decoders; a
    ///   download stops at the socket), or why there is no image, as ``loadImage(for:)`` throws,
    ///   and for network pictures `httpStatus`, `downloadFailed`, `responseTooLarge`,
    ///   `responseTruncated` or `undecodable`.
    nonisolated(nonsending) public func fetchImage(
        for request: ImageRequest, priority: ImageLoadPriority = .normal
    ) async throws(ImageStoreError) -> Image {
        cast(try await engine.load(request, priority: priority))
    }

    /// Starts loading `requests` in the background and keeps every image it loads alive until the
    /// returned handle is cancelled or released.
    ///
    /// Keeping the images is what makes prefetching work for large images too: the weak layer
    /// alone would free a prefetched photo the moment it was decoded. Release or cancel the
    /// handle once the images are on screen (they are then held by their views) or no longer
    /// wanted; cancelling also drops the loads nobody else waits for.
    ///
    /// ```swift
    /// func tableView(_ tableView: UITableView, prefetchRowsAt indexPaths: [IndexPath]) {
    ///     for indexPath in indexPaths {
    ///         prefetches[indexPath] = store.prefetch([request(at: indexPath)])
    ///     }
    /// }
    /// func tableView(_ tableView: UITableView, cancelPrefetchingForRowsAt indexPaths: [IndexPath]) {
    ///     for indexPath in indexPaths { prefetches.removeValue(forKey: indexPath)?.cancel() }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - requests: What to load.
    ///   - priority: Where the loads go in the queue. Defaults to `.low`, behind anything a
    ///     visible view asks for.
    /// - Returns: The handle that owns the prefetched images.
    public func prefetch(_ requests: [ImageRequest], priority: ImageLoadPriority = .low) -> ImagePrefetch {
        let prefetch = ImagePrefetch(requests: requests, engine: engine)
        engine.prefetch(requests, priority: priority, for: prefetch)
        return prefetch
    }
}

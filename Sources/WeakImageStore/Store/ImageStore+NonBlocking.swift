/// Loading without blocking: memory-only lookups, `async` lookups and prefetching.
///
/// The asynchronous API shares the caches, the in-flight loads and the statistics of the
/// synchronous one: a synchronous caller, an `async` task and a prefetch asking for the same
/// image share one load.
extension ImageStore {
    /// The image for `name` if the store holds it now, from memory only.
    ///
    /// Answers from the LRU or the weak layer under a remembered resolution. Never touches the
    /// file system, never decodes, never waits for a load: show its result at once, and load
    /// asynchronously when it is nil.
    ///
    /// ```swift
    /// cell.imageView.image = store.cachedImage(named: name)   // nil: not decoded yet
    /// ```
    ///
    /// - Parameter name: A file name relative to the store's directories.
    /// - Returns: The shared image, or nil if it is not in memory or the name was never resolved.
    /// - Complexity: One hash lookup of the name and one of the file, like a synchronous hit.
    public func cachedImage(named name: String) -> Image? {
        if let image = engine.hit(named: name) { return cast(image) }
        return cachedImage(for: .named(name))
    }

    /// The image in the file at `path` if the store holds it now, from memory only; see
    /// ``cachedImage(named:)``.
    ///
    /// - Parameter path: An absolute path, or one relative to the working directory.
    /// - Returns: The shared image, or nil.
    public func cachedImage(contentsOfFile path: String) -> Image? {
        cachedImage(for: .file(path))
    }

    /// The image for `name`, loaded on the store's loading threads if it is not in memory.
    ///
    /// A hit returns at once on the caller's executor, without suspending. A miss resolves, reads
    /// and decodes on the store's loading threads, never on the caller's, while the caller is
    /// suspended; lookups of the same image share one load whoever asks (async, synchronous or
    /// prefetch). Resolution rules are those of ``loadImage(named:)``.
    ///
    /// ```swift
    /// let task = Task { @MainActor in
    ///     imageView.image = try? await store.fetchImage(named: "photos/\(id)", priority: .high)
    /// }
    /// // When the cell is reused: task.cancel()
    /// ```
    ///
    /// - Parameters:
    ///   - name: A file name relative to the store's directories.
    ///   - priority: Where the load goes in the queue. Defaults to `.normal`.
    /// - Returns: The shared image.
    /// - Throws: ``ImageStoreError/cancelled`` as soon as the task is cancelled (the load goes on
    ///   only if someone else still waits for it: otherwise a queued load is dropped and a running
    ///   one stops part-way, within a few kilobytes of data for the built-in decoders), or why there is no
    ///   image, as ``loadImage(named:)`` throws.
    nonisolated(nonsending) public func fetchImage(
        named name: String, priority: ImageLoadPriority = .normal
    ) async throws(ImageStoreError) -> Image {
        if let image = engine.hit(named: name) { return cast(image) }
        return try await fetchImage(for: .named(name), priority: priority)
    }

    /// The image in the file at `path`, loaded on the store's loading threads if it is not in
    /// memory; see ``fetchImage(named:priority:)``.
    ///
    /// - Parameters:
    ///   - path: An absolute path, or one relative to the working directory. Any path is
    ///     allowed, as for ``loadImage(contentsOfFile:)``.
    ///   - priority: Where the load goes in the queue. Defaults to `.normal`.
    /// - Returns: The shared image.
    /// - Throws: ``ImageStoreError/cancelled`` when the task is cancelled, or why there is no
    ///   image.
    nonisolated(nonsending) public func fetchImage(
        contentsOfFile path: String, priority: ImageLoadPriority = .normal
    ) async throws(ImageStoreError) -> Image {
        try await fetchImage(for: .file(path), priority: priority)
    }

    /// Starts loading `names` in the background and keeps every image it loads alive until the
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
    ///         prefetches[indexPath] = store.prefetch(named: [photoName(at: indexPath)])
    ///     }
    /// }
    /// func tableView(_ tableView: UITableView, cancelPrefetchingForRowsAt indexPaths: [IndexPath]) {
    ///     for indexPath in indexPaths { prefetches.removeValue(forKey: indexPath)?.cancel() }
    /// }
    /// ```
    ///
    /// - Parameters:
    ///   - names: File names relative to the store's directories.
    ///   - priority: Where the loads go in the queue. Defaults to `.low`, behind anything a
    ///     visible view asks for.
    /// - Returns: The handle that owns the prefetched images.
    public func prefetch(named names: [String], priority: ImageLoadPriority = .low) -> ImagePrefetch {
        prefetch(names.map { .named($0) }, priority: priority)
    }
}

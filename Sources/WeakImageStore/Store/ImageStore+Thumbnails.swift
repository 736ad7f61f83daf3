/// Images decoded at the size they are shown: thumbnails that never hold the full-size pixels.
///
/// A thumbnail is an ordinary image to the store, keyed by its file and output size: every
/// spelling of the name and the file's path share one instance per size, thumbnails small
/// enough for the LRU stay there, large ones are held weakly, and loads coalesce, queue by
/// priority and cancel exactly as full-size ones do.
///
/// `maxPixelSize` bounds the longest side in pixels; the aspect ratio is kept and images are never
/// enlarged. The output size is exactly `s = maxPixelSize / max(w, h)`,
/// `width = max(1, floor(w · s + 0.5))`, `height = max(1, floor(h · s + 0.5))`. A `maxPixelSize`
/// at least the image's longest side gives **the full-size instance** itself, so no two live
/// images ever hold the same pixels. The scale of a thumbnail is its file's (`@2x` stays 2), so
/// its point size is its pixel size divided by that scale: ask for `points × screen scale` pixels.
///
/// The store learns an image's pixel size from the file's header the first time a thumbnail of
/// it is asked for, and remembers it until ``removeAll()``. A decoder that cannot read sizes
/// (its ``ImageDecoding/pixelSize(of:)`` returns nil) gets no thumbnail requests: the full-size
/// image is served instead.
extension ImageStore {
    /// The image for `name` decoded to at most `maxPixelSize` pixels on its longest side, or nil
    /// if there is none or it cannot be read.
    ///
    /// ```swift
    /// let thumbnail = store.image(named: "photos/beach", maxPixelSize: 300)  // 100 pt at 3x
    /// ```
    ///
    /// - Parameters:
    ///   - name: A file name relative to the store's directories, resolved as by
    ///     ``loadImage(named:)``.
    ///   - maxPixelSize: The longest side of the result, in pixels; at least 1.
    /// - Returns: The shared thumbnail (or the full-size image, if it is not larger), or nil.
    public func image(named name: String, maxPixelSize: Int) -> Image? {
        image(for: .named(name, maxPixelSize: maxPixelSize))
    }

    /// The image for `name` decoded to at most `maxPixelSize` pixels on its longest side, or the
    /// reason there is none.
    ///
    /// - Parameters:
    ///   - name: A file name relative to the store's directories.
    ///   - maxPixelSize: The longest side of the result, in pixels; at least 1.
    /// - Returns: The shared thumbnail, or the full-size image if it is not larger.
    /// - Throws: An ``ImageStoreError``, as ``loadImage(named:)`` does.
    public func loadImage(named name: String, maxPixelSize: Int) throws(ImageStoreError) -> Image {
        try loadImage(for: .named(name, maxPixelSize: maxPixelSize))
    }

    /// The image for `name` at most `maxPixelSize` pixels on its longest side, loaded on the
    /// store's loading threads if it is not in memory; see ``fetchImage(named:priority:)``.
    ///
    /// - Parameters:
    ///   - name: A file name relative to the store's directories.
    ///   - maxPixelSize: The longest side of the result, in pixels; at least 1.
    ///   - priority: Where the load goes in the queue. Defaults to `.normal`.
    /// - Returns: The shared thumbnail, or the full-size image if it is not larger.
    /// - Throws: ``ImageStoreError/cancelled`` when the task is cancelled, or why there is no
    ///   image.
    nonisolated(nonsending) public func fetchImage(
        named name: String, maxPixelSize: Int, priority: ImageLoadPriority = .normal
    ) async throws(ImageStoreError) -> Image {
        try await fetchImage(for: .named(name, maxPixelSize: maxPixelSize), priority: priority)
    }

    /// The thumbnail of `name` at `maxPixelSize` if the store holds it now, from memory only;
    /// see ``cachedImage(named:)``.
    ///
    /// - Parameters:
    ///   - name: A file name relative to the store's directories.
    ///   - maxPixelSize: The longest side of the result, in pixels; at least 1.
    /// - Returns: The shared thumbnail, or nil if it is not in memory (or the image's size is not
    ///   known yet).
    public func cachedImage(named name: String, maxPixelSize: Int) -> Image? {
        cachedImage(for: .named(name, maxPixelSize: maxPixelSize))
    }

    /// The image in the file at `path` decoded to at most `maxPixelSize` pixels on its longest
    /// side, or nil; see ``image(named:maxPixelSize:)``.
    ///
    /// - Parameters:
    ///   - path: An absolute path, or one relative to the working directory; any path is allowed.
    ///   - maxPixelSize: The longest side of the result, in pixels; at least 1.
    /// - Returns: The shared thumbnail, or nil.
    public func image(contentsOfFile path: String, maxPixelSize: Int) -> Image? {
        image(for: .file(path, maxPixelSize: maxPixelSize))
    }

    /// The image in the file at `path` decoded to at most `maxPixelSize` pixels on its longest
    /// side, or the reason there is none.
    ///
    /// - Parameters:
    ///   - path: An absolute path, or one relative to the working directory; any path is allowed.
    ///   - maxPixelSize: The longest side of the result, in pixels; at least 1.
    /// - Returns: The shared thumbnail, or the full-size image if it is not larger.
    /// - Throws: An ``ImageStoreError``, as ``loadImage(contentsOfFile:)`` does.
    public func loadImage(contentsOfFile path: String, maxPixelSize: Int) throws(ImageStoreError) -> Image {
        try loadImage(for: .file(path, maxPixelSize: maxPixelSize))
    }

    /// The image in the file at `path` at most `maxPixelSize` pixels on its longest side, loaded
    /// on the store's loading threads if it is not in memory.
    ///
    /// - Parameters:
    ///   - path: An absolute path, or one relative to the working directory; any path is allowed.
    ///   - maxPixelSize: The longest side of the result, in pixels; at least 1.
    ///   - priority: Where the load goes in the queue. Defaults to `.normal`.
    /// - Returns: The shared thumbnail, or the full-size image if it is not larger.
    /// - Throws: ``ImageStoreError/cancelled`` when the task is cancelled, or why there is no
    ///   image.
    nonisolated(nonsending) public func fetchImage(
        contentsOfFile path: String, maxPixelSize: Int, priority: ImageLoadPriority = .normal
    ) async throws(ImageStoreError) -> Image {
        try await fetchImage(for: .file(path, maxPixelSize: maxPixelSize), priority: priority)
    }

    /// The thumbnail of the file at `path` if the store holds it now, from memory only.
    ///
    /// - Parameters:
    ///   - path: An absolute path, or one relative to the working directory.
    ///   - maxPixelSize: The longest side of the result, in pixels; at least 1.
    /// - Returns: The shared thumbnail, or nil.
    public func cachedImage(contentsOfFile path: String, maxPixelSize: Int) -> Image? {
        cachedImage(for: .file(path, maxPixelSize: maxPixelSize))
    }
}

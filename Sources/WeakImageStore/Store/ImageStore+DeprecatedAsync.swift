/// The asynchronous loads' first spelling. They shared the synchronous lookups' name, so in code
/// that is not an `async` function (a `main.swift` script) `try await store.image(for:)` picked the
/// synchronous overload and returned `nil` without loading. Each is now `fetchImage`.
extension ImageStore {
    /// Deprecated: ``fetchImage(for:priority:)``.
    @available(*, deprecated, renamed: "fetchImage(for:priority:)")
    nonisolated(nonsending) public func image(
        for request: ImageRequest, priority: ImageLoadPriority = .normal
    ) async throws(ImageStoreError) -> Image {
        try await fetchImage(for: request, priority: priority)
    }

    /// Deprecated: ``fetchImage(named:priority:)``.
    @available(*, deprecated, renamed: "fetchImage(named:priority:)")
    nonisolated(nonsending) public func image(
        named name: String, priority: ImageLoadPriority = .normal
    ) async throws(ImageStoreError) -> Image {
        try await fetchImage(named: name, priority: priority)
    }

    /// Deprecated: ``fetchImage(contentsOfFile:priority:)``.
    @available(*, deprecated, renamed: "fetchImage(contentsOfFile:priority:)")
    nonisolated(nonsending) public func image(
        contentsOfFile path: String, priority: ImageLoadPriority = .normal
    ) async throws(ImageStoreError) -> Image {
        try await fetchImage(contentsOfFile: path, priority: priority)
    }

    /// Deprecated: ``fetchImage(named:maxPixelSize:priority:)``.
    @available(*, deprecated, renamed: "fetchImage(named:maxPixelSize:priority:)")
    nonisolated(nonsending) public func image(
        named name: String, maxPixelSize: Int, priority: ImageLoadPriority = .normal
    ) async throws(ImageStoreError) -> Image {
        try await fetchImage(named: name, maxPixelSize: maxPixelSize, priority: priority)
    }

    /// Deprecated: ``fetchImage(contentsOfFile:maxPixelSize:priority:)``.
    @available(*, deprecated, renamed: "fetchImage(contentsOfFile:maxPixelSize:priority:)")
    nonisolated(nonsending) public func image(
        contentsOfFile path: String, maxPixelSize: Int, priority: ImageLoadPriority = .normal
    ) async throws(ImageStoreError) -> Image {
        try await fetchImage(contentsOfFile: path, maxPixelSize: maxPixelSize, priority: priority)
    }
}

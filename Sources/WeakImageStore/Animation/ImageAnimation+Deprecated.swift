/// The asynchronous frame's first spelling, which shared the synchronous ``ImageAnimation/frame(at:)``'s
/// name (see `ImageStore+DeprecatedAsync.swift`).
extension ImageAnimation {
    /// Deprecated: ``fetchFrame(at:priority:)``.
    @available(*, deprecated, renamed: "fetchFrame(at:priority:)")
    nonisolated(nonsending) public func frame(
        at index: Int, priority: ImageLoadPriority = .normal
    ) async throws(ImageStoreError) -> Image {
        try await fetchFrame(at: index, priority: priority)
    }
}

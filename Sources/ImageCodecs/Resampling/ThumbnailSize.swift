/// The exact size of a reduced image, the one rule every decoder's thumbnail path and the store
/// share so that results are comparable:
///
///     s    = maxPixelSize / max(w, h)          (Double)
///     outW = max(1, floor(w * s + 0.5))
///     outH = max(1, floor(h * s + 0.5))
///
/// A `maxPixelSize` of at least the longest side gives no reduced size: the image is used as is,
/// never upscaled.
package struct ThumbnailSize: Equatable {
    /// The reduced width in pixels, at least 1 and at most the source's.
    package let width: Int
    /// The reduced height in pixels, at least 1 and at most the source's.
    package let height: Int

    /// The reduced size of a `width` × `height` image, or `nil` if `maxPixelSize` is at least
    /// its longest side.
    ///
    /// - Parameters:
    ///   - width: The source width in pixels; at least 1.
    ///   - height: The source height in pixels; at least 1.
    ///   - maxPixelSize: The most pixels the longest side may have; at least 1.
    package init?(width: Int, height: Int, maxPixelSize: Int) {
        precondition(width >= 1 && height >= 1, "ThumbnailSize needs a non-empty source")
        precondition(maxPixelSize >= 1, "maxPixelSize must be at least 1")
        let longestSide = max(width, height)
        guard maxPixelSize < longestSide else { return nil }
        let factor = Double(maxPixelSize) / Double(longestSide)
        // Both products are below the source side, so the conversions cannot trap.
        self.width = max(1, Int((Double(width) * factor + 0.5).rounded(.down)))
        self.height = max(1, Int((Double(height) * factor + 0.5).rounded(.down)))
    }
}

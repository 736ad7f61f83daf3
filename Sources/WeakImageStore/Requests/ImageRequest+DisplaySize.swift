import Foundation

extension ImageRequest {
    /// The same source, decoded for a view of `size` points on a screen of `displayScale` pixels
    /// per point: `maxPixelSize` becomes the size's longest side in pixels, rounded up.
    ///
    /// | `size` | `displayScale` | `maxPixelSize` |
    /// |---|---|---|
    /// | 44 × 44 | 3 | 132 |
    /// | 320 × 180 | 2 | 640 |
    /// | 0 × 0 | any | 1 |
    ///
    /// The result fits the view when the image is shown whole (`.scaledToFit()`). Shown with
    /// `.scaledToFill()`, an image whose aspect ratio differs from the view's is scaled up a
    /// little: a 4:3 photo filling a square is 4/3 of the square's side long. Pass a size that
    /// much larger when that matters.
    ///
    /// ```swift
    /// let avatar = ImageRequest.named("avatars/42")
    ///     .withMaxPixelSize(fitting: CGSize(width: 44, height: 44), displayScale: 3)
    /// // avatar.maxPixelSize == 132
    /// ```
    ///
    /// - Parameters:
    ///   - size: The view's size in points; finite, not negative.
    ///   - displayScale: The screen's pixels per point, such as SwiftUI's
    ///     `EnvironmentValues.displayScale` or a view's `traitCollection.displayScale`; finite
    ///     and greater than 0.
    /// - Returns: The request for that size; its `maxPixelSize` is at least 1.
    public func withMaxPixelSize(fitting size: CGSize, displayScale: CGFloat) -> ImageRequest {
        precondition(
            size.width.isFinite && size.height.isFinite && size.width >= 0 && size.height >= 0,
            "size must be finite and not negative")
        precondition(displayScale.isFinite && displayScale > 0, "displayScale must be finite and greater than 0")
        let pixels = (max(size.width, size.height) * displayScale).rounded(.up)
        // Clamped: `Int(_:)` traps beyond its range, and no image is larger than Int32.max anyway.
        return withMaxPixelSize(Int(min(max(pixels, 1), CGFloat(Int32.max))))
    }
}

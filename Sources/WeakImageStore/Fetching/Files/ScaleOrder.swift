/// The order in which a name's scale suffixes are tried for a screen: its own scale first, as
/// `UIImage(named:)` does, then the larger scales (scaled down, an image stays sharp), then the
/// smaller ones from the largest down (scaled up, the least blurry first).
///
/// | screen | suffixes tried |
/// |---|---|
/// | 1x | `@1x` (the plain file), `@2x`, `@3x` |
/// | 2x | `@2x`, `@3x`, `@1x` |
/// | 3x | `@3x`, `@2x`, `@1x` |
/// | unknown (0, negative, not finite) | as 2x |
enum ScaleOrder {
    /// The order for a screen whose scale is unknown: 2x, the most common screen.
    static let unknownScreen = [2, 3, 1]

    /// The largest suffix the order reaches up to: `@3x`, the largest asset scale Apple uses.
    static let largestAssetScale = 3

    /// The scales to try, the screen's own first.
    ///
    /// - Parameter displayScale: The screen's pixels per point, as UIKit reports it; fractional
    ///   scales (2.608 on a zoomed iPhone Plus) round to the nearest whole one.
    /// - Returns: The screen's scale, the larger asset scales, then the smaller ones.
    static func screenFirst(displayScale: Double) -> [Int] {
        // Not `Int(_:)` straight away: it traps on NaN and infinity, and 0 means "unspecified".
        guard displayScale.isFinite, displayScale >= 0.5, displayScale <= Double(ImageName.maximumScale) else {
            return unknownScreen
        }
        let screen = Int(displayScale.rounded())
        let larger = screen < largestAssetScale ? Array((screen + 1)...largestAssetScale) : []
        let smaller = Array((1..<screen).reversed())
        return [screen] + larger + smaller
    }
}

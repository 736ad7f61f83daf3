import WeakImageStore

/// Every image a UI thread received, watched for two live instances with the same pixels; and
/// the images it set on screen, whose new instances are the decodes that were used.
struct DeliveredImages {
    private var received = InstanceTracker()
    private var shown = InstanceTracker()
    /// Distinct decoded images set on screen.
    private(set) var usedDecodes = 0

    /// The most live instances with the same pixels at once, minus one.
    var maximumDuplicates: Int { received.maximumDuplicates }

    /// Records `image`, received for `key` (one file at one size), and set on screen.
    mutating func setOnScreen(_ image: Bitmap, key: String) {
        _ = received.observe(image, file: key)
        if shown.observe(image, file: key) { usedDecodes += 1 }
    }

    /// Records `image`, received for `key` for a cell already gone, and dropped.
    mutating func dropped(_ image: Bitmap, key: String) {
        _ = received.observe(image, file: key)
    }
}

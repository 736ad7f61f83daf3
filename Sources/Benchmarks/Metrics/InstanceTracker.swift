import WeakImageStore

/// Watches every image a strategy returns, through weak references keyed by the file it came
/// from, to count decodes and duplicates the same way for every strategy.
///
/// An instance that is not among the live instances already seen for its file must be new, so
/// it was decoded by this lookup: an instance seen before and still alive is found by identity,
/// and a dead one cannot be returned again.
struct InstanceTracker {
    private struct WeakBitmap {
        weak var image: Bitmap?
    }

    private var liveInstances: [String: [WeakBitmap]] = [:]
    /// New instances seen, across all files.
    private(set) var decodeCount = 0
    /// The most live instances one file ever had at once, minus one.
    private(set) var maximumDuplicates = 0

    /// Files looked up successfully at least once.
    var distinctFiles: Int { liveInstances.count }

    /// Records that a lookup of `file` returned `image`.
    ///
    /// - Returns: Whether `image` is a new instance, decoded by this lookup.
    mutating func observe(_ image: Bitmap, file: String) -> Bool {
        var instances = liveInstances[file, default: []]
        instances.removeAll { $0.image == nil }
        let isNew = !instances.contains { $0.image === image }
        if isNew {
            instances.append(WeakBitmap(image: image))
            decodeCount += 1
            maximumDuplicates = max(maximumDuplicates, instances.count - 1)
        }
        liveInstances[file] = instances
        return isNew
    }
}

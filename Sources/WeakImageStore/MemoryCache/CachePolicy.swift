/// How an ``ImageStore`` keeps decoded images: the five strategies apps use, side by side.
///
/// | policy | keeps an image | duplicates while in use |
/// |---|---|---|
/// | `.uncached` ("Resource") | never: every lookup decodes | one per lookup |
/// | `.strong` ("ImageAssets") | forever, until `removeAll()` or `.critical` pressure | none, until purged |
/// | `.retainCountSweep` ("MRC + dictionary") | until a sweep sees only the map holds it | none, until purged |
/// | `.weak` ("weak dictionary") | while someone holds it | none |
/// | `.weakWithLRU` (the default) | while someone holds it; small images also while recently used | none |
/// | `.weakWithBudgetedLRU` | as `.weakWithLRU`, but the LRU gives way to images in use beyond a live-byte limit | none |
public enum CachePolicy: Sendable, Hashable {
    /// Like `UIImage(contentsOfFile:)`: a fresh decode for every lookup, nothing shared.
    case uncached
    /// Like `UIImage(named:)`'s asset cache: a strong name → image map. Every image ever shown
    /// stays until ``ImageStore/removeAll()`` or `.critical` memory pressure.
    case strong
    /// A strong map swept every ``RetainCountSweep/interval`` lookups and on memory pressure:
    /// an entry is dropped when the map holds the only reference (`isKnownUniquelyReferenced`).
    case retainCountSweep
    /// A map of boxed weak references: an image is shared while anyone holds it and freed as soon
    /// as the last holder lets go.
    case weak
    /// The weak map plus a strong least-recently-used cache for small images.
    ///
    /// - Parameters:
    ///   - costLimit: The most bytes (summed ``StorableImage/cost``) the LRU holds.
    ///   - countLimit: The most images the LRU holds.
    ///   - admissionCostLimit: Only images costing at most this many bytes enter the LRU; larger
    ///     ones are held weakly only and die with their last user.
    case weakWithLRU(costLimit: Int, countLimit: Int, admissionCostLimit: Int)
    /// `.weakWithLRU` under a budget that counts everything alive: the images views hold as well
    /// as the LRU's.
    ///
    /// Images in use cannot be evicted, so the LRU gives way: whenever the store's
    /// ``ImageStoreStatistics/liveCost`` exceeds `liveCostLimit`, the LRU is trimmed, least
    /// recently used first, until it fits or the LRU is empty, and an image enters the LRU only
    /// while live bytes fit. When images in use alone exceed the limit, the store counts an
    /// overrun (``ImageStoreStatistics/budgetOverruns``) and tells ``ImageStore/budgetOverruns()``.
    ///
    /// A decode counts before its image exists: when the decoder reads pixel sizes
    /// (``ImageDecoding/pixelSize(of:)``), the store reserves the image's bytes at 4 a pixel and
    /// trims the LRU to make room first, so a large photo opened over a full LRU does not exist
    /// beside all of it. The reservation ends when the decode does.
    ///
    /// The budget is exact for images that report their death (``Bitmap``, `UIImage`, `NSImage`,
    /// any `NSObject`); for other image types live bytes are found by checking weak references
    /// when the budget is checked.
    ///
    /// - Parameters:
    ///   - liveCostLimit: The most bytes (summed ``StorableImage/cost``) of this store's images
    ///     that may be alive, in use or not, before the LRU gives way. See
    ///     ``ProcessMemoryLimit/recommendedLiveCostLimit(fraction:)`` for one derived from the machine.
    ///   - costLimit: The most bytes the LRU holds.
    ///   - countLimit: The most images the LRU holds.
    ///   - admissionCostLimit: Only images costing at most this many bytes enter the LRU.
    case weakWithBudgetedLRU(liveCostLimit: Int, costLimit: Int, countLimit: Int, admissionCostLimit: Int)

    /// `.weakWithLRU` with a 16 MiB cost limit, a 500-image count limit and a 256 KiB admission limit.
    ///
    /// 256 KiB admits any RGBA icon up to 256 × 256 pixels (a 60-point icon at 3x is 180 × 180,
    /// 127 KiB) and keeps out photos and backgrounds. 16 MiB holds well over a hundred of the
    /// largest such icons and thousands of toolbar-sized ones, a small fraction of an app's budget;
    /// the count limit bounds the bookkeeping for tiny images.
    ///
    /// The default has no live-byte budget: a good one depends on the app and the device, and a
    /// budget below what the app's views hold would only empty the LRU. Opt in with
    /// ``budgeted(liveCostLimit:)``.
    public static var `default`: CachePolicy {
        .weakWithLRU(costLimit: 16 * 1024 * 1024, countLimit: 500, admissionCostLimit: 256 * 1024)
    }

    /// The default policy's LRU under a live-byte budget: `.weakWithBudgetedLRU` with a 16 MiB
    /// cost limit, a 500-image count limit and a 256 KiB admission limit.
    ///
    /// ```swift
    /// var configuration = ImageStore<Bitmap>.Configuration(directories: [resources])
    /// configuration.policy = .budgeted(liveCostLimit: ProcessMemoryLimit.recommendedLiveCostLimit())
    /// let store = ImageStore(configuration)
    /// ```
    ///
    /// - Parameter liveCostLimit: The most bytes of this store's images alive at once before the
    ///   LRU gives way; not negative.
    /// - Returns: The policy.
    public static func budgeted(liveCostLimit: Int) -> CachePolicy {
        .weakWithBudgetedLRU(
            liveCostLimit: liveCostLimit, costLimit: 16 * 1024 * 1024, countLimit: 500, admissionCostLimit: 256 * 1024)
    }
}

/// Settings of the `.retainCountSweep` policy.
public enum RetainCountSweep {
    /// The number of lookups between two sweeps: 64.
    public static let interval = 64
}

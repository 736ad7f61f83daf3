/// How an ``ImageStore`` keeps decoded images: the five strategies apps use, side by side.
///
/// | policy | keeps an image | duplicates while in use |
/// |---|---|---|
/// | `.uncached` ("Resource") | never: every lookup decodes | one per lookup |
/// | `.strong` ("ImageAssets") | forever, until `removeAll()` or `.critical` pressure | none, until purged |
/// | `.retainCountSweep` ("MRC + dictionary") | until a sweep sees only the map holds it | none, until purged |
/// | `.weak` ("weak dictionary") | while someone holds it | none |
/// | `.weakWithLRU` (the default) | while someone holds it; small images also while recently used | none |
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

    /// `.weakWithLRU` with a 16 MiB cost limit, a 500-image count limit and a 256 KiB admission limit.
    ///
    /// 256 KiB admits any RGBA icon up to 256 × 256 pixels (a 60-point icon at 3x is 180 × 180,
    /// 127 KiB) and keeps out photos and backgrounds. 16 MiB holds well over a hundred of the
    /// largest such icons and thousands of toolbar-sized ones, a small fraction of an app's budget;
    /// the count limit bounds the bookkeeping for tiny images.
    public static var `default`: CachePolicy {
        .weakWithLRU(costLimit: 16 * 1024 * 1024, countLimit: 500, admissionCostLimit: 256 * 1024)
    }
}

/// Settings of the `.retainCountSweep` policy.
public enum RetainCountSweep {
    /// The number of lookups between two sweeps: 64.
    public static let interval = 64
}

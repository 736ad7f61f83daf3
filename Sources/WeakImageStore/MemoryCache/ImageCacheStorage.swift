/// The storage behind one ``CachePolicy``. The store calls it under its lock, so every method
/// must be quick and must not free images: images the storage lets go of are appended to
/// `released`, and the store drops them after unlocking.
///
/// Storages are classes touched only under their store's lock (hence `@unchecked Sendable`, and
/// stored properties marked `@exclusivity(unchecked)`): a struct behind
/// `any ImageCacheStorage` lives in a copy-on-write box whose uniqueness every mutation checks,
/// and a class property's dynamic exclusivity check costs more still, on every cache hit.
protocol ImageCacheStorage: AnyObject, Sendable {
    /// Whether one image per key is shared, so concurrent misses should coalesce into one load.
    var sharesImages: Bool { get }

    /// Whether ``lookup(_:hint:released:)`` counts each call (the retain-count sweep's interval),
    /// so that a lookup must probe once: the store's name hit path, which probes before the
    /// full lookup and probes again after a miss, is skipped for such a storage.
    var countsLookups: Bool { get }

    /// The image for `key`; `hint` says where it was last found and is updated.
    func lookup(_ key: ImageKey, hint: inout SlotHint, released: inout [CachedImage]) -> CacheLookup
    func store(_ image: CachedImage, for key: ImageKey, released: inout [CachedImage])
    func handleMemoryPressure(_ level: MemoryPressureLevel, released: inout [CachedImage])
    /// Drops every strong reference; weak entries stay so images in use are still shared.
    func removeAll(released: inout [CachedImage])

    var strongCost: Int { get }
    var strongCount: Int { get }
    var weakCount: Int { get }

    // Live-image accounting and the budget; defaults in ImageCacheStorage+LiveImages.swift.

    /// The most live bytes the policy allows, or nil for no limit.
    var liveCostLimit: Int? { get }
    /// Stores a freshly loaded image that reports its death under `token` (or not, if
    /// ``DeathToken/unwatched``); the store has counted it as live already.
    func store(_ image: CachedImage, for key: ImageKey, token: DeathToken, released: inout [CachedImage])
    /// The image registered under `token` for `key` died; it must not be loaded or freed here.
    func imageDied(for key: ImageKey, token: DeathToken)
    /// The store's live bytes changed to `liveCost`.
    func liveCostDidChange(to liveCost: Int)
    /// Evicts least recently used strong references until their cost reaches `cost`.
    ///
    /// - Returns: Whether anything was evicted.
    func evictLeastRecentlyUsed(cost: Int, released: inout [CachedImage]) -> Bool
}

extension CachePolicy {
    /// A fresh, empty storage implementing this policy.
    func makeStorage() -> any ImageCacheStorage {
        switch self {
        case .uncached:
            UncachedStorage()
        case .strong:
            StrongStorage()
        case .retainCountSweep:
            RetainCountSweepStorage(interval: RetainCountSweep.interval)
        case .weak:
            WeakStorage()
        case .weakWithLRU(let costLimit, let countLimit, let admissionCostLimit):
            WeakWithLRUStorage(
                costLimit: costLimit, countLimit: countLimit, admissionCostLimit: admissionCostLimit
            )
        case .weakWithBudgetedLRU(let liveCostLimit, let costLimit, let countLimit, let admissionCostLimit):
            WeakWithLRUStorage(
                costLimit: costLimit, countLimit: countLimit, admissionCostLimit: admissionCostLimit,
                liveCostLimit: liveCostLimit
            )
        }
    }
}

/// `.weakWithLRU` (the default): every image is registered weakly, so it is shared for as long
/// as anyone holds it; images costing at most `admissionCostLimit` are also kept in a strong LRU,
/// so icons survive between uses while large images die with their last user.
struct WeakWithLRUStorage: ImageCacheStorage {
    private var table = WeakTable<ResourceKey>()
    private(set) var recentlyUsed: LRUCache<ResourceKey>
    let admissionCostLimit: Int

    init(costLimit: Int, countLimit: Int, admissionCostLimit: Int) {
        precondition(admissionCostLimit >= 0, "admissionCostLimit must not be negative")
        recentlyUsed = LRUCache(costLimit: costLimit, countLimit: countLimit)
        self.admissionCostLimit = admissionCostLimit
    }

    var sharesImages: Bool { true }
    var strongCost: Int { recentlyUsed.totalCost }
    var strongCount: Int { recentlyUsed.count }
    var weakCount: Int { table.count }

    mutating func lookup(_ key: ResourceKey, hint: inout SlotHint, released: inout [CachedImage]) -> CacheLookup {
        if let image = recentlyUsed.image(for: key, hint: &hint.strong) {
            return .strongHit(image)
        }
        guard let image = table.image(for: key, hint: &hint.weak) else { return .miss }
        // In use again after the LRU let it go: it is recent once more.
        admit(image, for: key, released: &released)
        return .weakHit(image)
    }

    mutating func store(_ image: CachedImage, for key: ResourceKey, released: inout [CachedImage]) {
        table.insert(image, for: key)
        admit(image, for: key, released: &released)
    }

    mutating func handleMemoryPressure(_ level: MemoryPressureLevel, released: inout [CachedImage]) {
        switch level {
        case .warning:
            recentlyUsed.trim(
                toCost: recentlyUsed.costLimit / 2, count: recentlyUsed.countLimit / 2, evicted: &released
            )
        case .critical:
            recentlyUsed.removeAll(evicted: &released)
        }
        table.pruneDeadEntries()
    }

    mutating func removeAll(released: inout [CachedImage]) {
        recentlyUsed.removeAll(evicted: &released)
        table.pruneDeadEntries()
    }

    private mutating func admit(_ image: CachedImage, for key: ResourceKey, released: inout [CachedImage]) {
        guard image.cost <= admissionCostLimit else { return }
        recentlyUsed.insert(image, for: key, evicted: &released)
    }
}

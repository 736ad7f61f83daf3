/// `.weakWithLRU` (the default) and `.weakWithBudgetedLRU`: every image is registered weakly, so
/// it is shared for as long as anyone holds it; images costing at most `admissionCostLimit` are
/// also kept in a strong LRU, so icons survive between uses while large images die with their
/// last user.
///
/// With a live-cost limit the LRU gives way to the images in use: it admits an image only while
/// the store's live bytes fit the limit, and it is trimmed, oldest first, when they do not.
final class WeakWithLRUStorage: ImageCacheStorage, @unchecked Sendable {
    @exclusivity(unchecked) private var table = WeakTable<ImageKey>()
    @exclusivity(unchecked) private(set) var recentlyUsed: LRUCache<ImageKey>
    let admissionCostLimit: Int
    let liveCostLimit: Int?
    /// `liveCostLimit`, or `Int.max` for none: one comparison on the hit path either way.
    private let effectiveLiveCostLimit: Int
    /// The store's live bytes, as last told by the store.
    @exclusivity(unchecked) private var liveCost = 0

    init(costLimit: Int, countLimit: Int, admissionCostLimit: Int, liveCostLimit: Int? = nil) {
        precondition(admissionCostLimit >= 0, "admissionCostLimit must not be negative")
        precondition((liveCostLimit ?? 0) >= 0, "liveCostLimit must not be negative")
        recentlyUsed = LRUCache(costLimit: costLimit, countLimit: countLimit)
        self.admissionCostLimit = admissionCostLimit
        self.liveCostLimit = liveCostLimit
        effectiveLiveCostLimit = liveCostLimit ?? .max
    }

    var sharesImages: Bool { true }
    var countsLookups: Bool { false }
    var strongCost: Int { recentlyUsed.totalCost }
    var strongCount: Int { recentlyUsed.count }
    var weakCount: Int { table.count }

    func lookup(_ key: ImageKey, hint: inout SlotHint, released: inout [CachedImage]) -> CacheLookup {
        if let image = recentlyUsed.image(for: key, hint: &hint.strong) {
            return .strongHit(image)
        }
        guard let image = table.image(for: key, hint: &hint.weak) else { return .miss }
        // In use again after the LRU let it go: it is recent once more, if the budget allows.
        admit(image, for: key, projectedLiveCost: liveCost, released: &released)
        return .weakHit(image)
    }

    func store(_ image: CachedImage, for key: ImageKey, released: inout [CachedImage]) {
        store(image, for: key, token: .unwatched, released: &released)
    }

    func store(_ image: CachedImage, for key: ImageKey, token: DeathToken, released: inout [CachedImage]) {
        table.insert(image, for: key, token: token)
        var projectedLiveCost = liveCost
        if liveCost > effectiveLiveCostLimit {
            // The new image counts already. Make room, assuming the oldest entries are not in
            // use; the store checks the real figure once they are released.
            projectedLiveCost -= recentlyUsed.evictLeastRecentlyUsed(
                cost: liveCost - effectiveLiveCostLimit, evicted: &released)
        }
        admit(image, for: key, projectedLiveCost: projectedLiveCost, released: &released)
    }

    func imageDied(for key: ImageKey, token: DeathToken) {
        table.removeEntry(for: key, ifToken: token)
    }

    func liveCostDidChange(to liveCost: Int) {
        self.liveCost = liveCost
    }

    func evictLeastRecentlyUsed(cost: Int, released: inout [CachedImage]) -> Bool {
        recentlyUsed.evictLeastRecentlyUsed(cost: cost, evicted: &released) > 0
    }

    func handleMemoryPressure(_ level: MemoryPressureLevel, released: inout [CachedImage]) {
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

    func removeAll(released: inout [CachedImage]) {
        recentlyUsed.removeAll(evicted: &released)
        table.pruneDeadEntries()
    }

    private func admit(
        _ image: CachedImage, for key: ImageKey, projectedLiveCost: Int, released: inout [CachedImage]
    ) {
        // The image is alive and counted, so admitting it adds no live bytes now; it only keeps
        // them later, which the budget allows while everything alive fits.
        guard image.cost <= admissionCostLimit, projectedLiveCost <= effectiveLiveCostLimit else { return }
        recentlyUsed.insert(image, for: key, evicted: &released)
    }
}

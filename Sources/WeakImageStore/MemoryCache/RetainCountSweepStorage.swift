/// `.retainCountSweep` ("MRC + dictionary"): a strong map swept every `interval` lookups and on
/// memory pressure, dropping entries that only the map still references.
///
/// Sweeps run under the store's lock, so two never overlap, and the lookup counter is reset by
/// the one lookup that crosses the interval, so concurrent lookups start one sweep, not several.
final class RetainCountSweepStorage: ImageCacheStorage, @unchecked Sendable {
    @exclusivity(unchecked) private var map = StrongStorage()
    @exclusivity(unchecked) private var lookupsSinceSweep = 0
    /// The sweeps run so far; for tests.
    @exclusivity(unchecked) private(set) var sweepCount = 0
    let interval: Int

    init(interval: Int) {
        precondition(interval > 0, "the sweep interval must be positive")
        self.interval = interval
    }

    var sharesImages: Bool { true }
    var countsLookups: Bool { true }
    var strongCost: Int { map.strongCost }
    var strongCount: Int { map.strongCount }
    var weakCount: Int { 0 }

    func lookup(_ key: ImageKey, hint: inout SlotHint, released: inout [CachedImage]) -> CacheLookup {
        lookupsSinceSweep += 1
        if lookupsSinceSweep >= interval {
            sweep(released: &released)
        }
        return map.lookup(key, hint: &hint, released: &released)
    }

    func store(_ image: CachedImage, for key: ImageKey, released: inout [CachedImage]) {
        map.store(image, for: key, released: &released)
    }

    func handleMemoryPressure(_ level: MemoryPressureLevel, released: inout [CachedImage]) {
        switch level {
        case .warning: sweep(released: &released)
        case .critical: map.removeAll(released: &released)
        }
    }

    func removeAll(released: inout [CachedImage]) {
        map.removeAll(released: &released)
    }

    /// Amortized over `interval` lookups, the O(entries) sweep costs O(1) per lookup.
    private func sweep(released: inout [CachedImage]) {
        lookupsSinceSweep = 0
        sweepCount += 1
        map.removeUnreferenced(released: &released)
    }
}

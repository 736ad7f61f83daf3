/// `.retainCountSweep` ("MRC + dictionary"): a strong map swept every `interval` lookups and on
/// memory pressure, dropping entries that only the map still references.
///
/// Sweeps run under the store's lock, so two never overlap, and the lookup counter is reset by
/// the one lookup that crosses the interval, so concurrent lookups start one sweep, not several.
struct RetainCountSweepStorage: ImageCacheStorage {
    private var images: [ResourceKey: CachedImage] = [:]
    private var lookupsSinceSweep = 0
    private(set) var strongCost = 0
    /// The sweeps run so far; for tests.
    private(set) var sweepCount = 0
    let interval: Int

    init(interval: Int) {
        precondition(interval > 0, "the sweep interval must be positive")
        self.interval = interval
    }

    var sharesImages: Bool { true }
    var strongCount: Int { images.count }
    var weakCount: Int { 0 }

    mutating func lookup(_ key: ResourceKey, hint: inout SlotHint, released: inout [CachedImage]) -> CacheLookup {
        lookupsSinceSweep += 1
        if lookupsSinceSweep >= interval {
            sweep(released: &released)
        }
        return images[key].map { .strongHit($0) } ?? .miss
    }

    mutating func store(_ image: CachedImage, for key: ResourceKey, released: inout [CachedImage]) {
        if let previous = images.updateValue(image, forKey: key) {
            strongCost -= previous.cost
            released.append(previous)
        }
        strongCost += image.cost
    }

    mutating func handleMemoryPressure(_ level: MemoryPressureLevel, released: inout [CachedImage]) {
        switch level {
        case .warning: sweep(released: &released)
        case .critical: removeAll(released: &released)
        }
    }

    mutating func removeAll(released: inout [CachedImage]) {
        released.append(contentsOf: images.values)
        images.removeAll()
        strongCost = 0
    }

    /// Drops every entry whose image nobody but the map references.
    ///
    /// - Complexity: O(number of entries); amortized over `interval` lookups.
    private mutating func sweep(released: inout [CachedImage]) {
        lookupsSinceSweep = 0
        sweepCount += 1
        var unused: [ResourceKey] = []
        var index = images.values.startIndex
        while index != images.values.endIndex {
            if isKnownUniquelyReferenced(&images.values[index].object) {
                unused.append(images.keys[index])
            }
            images.values.formIndex(after: &index)
        }
        for key in unused {
            if let image = images.removeValue(forKey: key) {
                strongCost -= image.cost
                // Uniquely referenced: handing it to `released` makes the store free it unlocked.
                released.append(image)
            }
        }
    }
}

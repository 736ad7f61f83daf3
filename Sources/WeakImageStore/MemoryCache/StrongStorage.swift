/// `.strong` ("ImageAssets"): a strong map; an image stays until `removeAll()` or `.critical`
/// memory pressure, whether anyone uses it or not.
final class StrongStorage: ImageCacheStorage, @unchecked Sendable {
    @exclusivity(unchecked) private var images: [ImageKey: CachedImage] = [:]
    @exclusivity(unchecked) private(set) var strongCost = 0

    var sharesImages: Bool { true }
    var countsLookups: Bool { false }
    var strongCount: Int { images.count }
    var weakCount: Int { 0 }

    func lookup(_ key: ImageKey, hint: inout SlotHint, released: inout [CachedImage]) -> CacheLookup {
        images[key].map { .strongHit($0) } ?? .miss
    }

    func store(_ image: CachedImage, for key: ImageKey, released: inout [CachedImage]) {
        if let previous = images.updateValue(image, forKey: key) {
            strongCost -= previous.cost
            released.append(previous)
        }
        strongCost += image.cost
    }

    func handleMemoryPressure(_ level: MemoryPressureLevel, released: inout [CachedImage]) {
        // The asset cache ignores warnings; that is the behaviour being compared.
        if level == .critical { removeAll(released: &released) }
    }

    func removeAll(released: inout [CachedImage]) {
        released.append(contentsOf: images.values)
        images.removeAll()
        strongCost = 0
    }

    /// Drops every entry whose image nobody but the map references: the retain-count sweep.
    ///
    /// - Complexity: O(number of entries).
    func removeUnreferenced(released: inout [CachedImage]) {
        var unused: [ImageKey] = []
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

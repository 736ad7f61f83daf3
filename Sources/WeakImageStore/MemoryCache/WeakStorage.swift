/// `.weak` ("weak dictionary"): images are shared while anyone holds them and never kept longer.
final class WeakStorage: ImageCacheStorage, @unchecked Sendable {
    @exclusivity(unchecked) private var table = WeakTable<ImageKey>()

    var sharesImages: Bool { true }
    var countsLookups: Bool { false }
    var strongCost: Int { 0 }
    var strongCount: Int { 0 }
    var weakCount: Int { table.count }

    func lookup(_ key: ImageKey, hint: inout SlotHint, released: inout [CachedImage]) -> CacheLookup {
        table.image(for: key, hint: &hint.weak).map { .weakHit($0) } ?? .miss
    }

    func store(_ image: CachedImage, for key: ImageKey, released: inout [CachedImage]) {
        table.insert(image, for: key)
    }

    func store(_ image: CachedImage, for key: ImageKey, token: DeathToken, released: inout [CachedImage]) {
        table.insert(image, for: key, token: token)
    }

    func imageDied(for key: ImageKey, token: DeathToken) {
        table.removeEntry(for: key, ifToken: token)
    }

    func handleMemoryPressure(_ level: MemoryPressureLevel, released: inout [CachedImage]) {
        table.pruneDeadEntries()
    }

    func removeAll(released: inout [CachedImage]) {
        table.pruneDeadEntries()
    }
}

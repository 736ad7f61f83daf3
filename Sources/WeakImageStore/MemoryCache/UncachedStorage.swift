/// `.uncached` ("Resource"): keeps nothing, so every lookup decodes a new instance.
final class UncachedStorage: ImageCacheStorage, @unchecked Sendable {
    var sharesImages: Bool { false }
    var countsLookups: Bool { false }
    var strongCost: Int { 0 }
    var strongCount: Int { 0 }
    var weakCount: Int { 0 }

    func lookup(_ key: ImageKey, hint: inout SlotHint, released: inout [CachedImage]) -> CacheLookup { .miss }
    func store(_ image: CachedImage, for key: ImageKey, released: inout [CachedImage]) {}
    func handleMemoryPressure(_ level: MemoryPressureLevel, released: inout [CachedImage]) {}
    func removeAll(released: inout [CachedImage]) {}
}

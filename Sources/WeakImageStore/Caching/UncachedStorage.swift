/// `.uncached` ("Resource"): keeps nothing, so every lookup decodes a new instance.
struct UncachedStorage<Image: StorableImage>: ImageCacheStorage {
    var sharesImages: Bool { false }
    var strongCost: Int { 0 }
    var strongCount: Int { 0 }
    var weakCount: Int { 0 }

    func lookup(_ key: ResourceKey, released: inout [Image]) -> CacheLookup<Image> { .miss }
    func store(_ image: Image, for key: ResourceKey, released: inout [Image]) {}
    func handleMemoryPressure(_ level: MemoryPressureLevel, released: inout [Image]) {}
    func removeAll(released: inout [Image]) {}
}

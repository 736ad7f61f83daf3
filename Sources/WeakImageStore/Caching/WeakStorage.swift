/// `.weak` ("weak dictionary"): images are shared while anyone holds them and never kept longer.
struct WeakStorage<Image: StorableImage>: ImageCacheStorage {
    private var table = WeakTable<ResourceKey, Image>()

    var sharesImages: Bool { true }
    var strongCost: Int { 0 }
    var strongCount: Int { 0 }
    var weakCount: Int { table.count }

    func lookup(_ key: ResourceKey, released: inout [Image]) -> CacheLookup<Image> {
        table.image(for: key).map { .weakHit($0) } ?? .miss
    }

    mutating func store(_ image: Image, for key: ResourceKey, released: inout [Image]) {
        table.insert(image, for: key)
    }

    mutating func handleMemoryPressure(_ level: MemoryPressureLevel, released: inout [Image]) {
        table.pruneDeadEntries()
    }

    mutating func removeAll(released: inout [Image]) {
        table.pruneDeadEntries()
    }
}

/// Where a lookup found its image.
enum CacheLookup<Image: StorableImage> {
    case strongHit(Image)
    case weakHit(Image)
    case miss
}

/// The storage behind one ``CachePolicy``. The store calls it under its lock, so every method
/// must be quick and must not free images: images the storage lets go of are appended to
/// `released`, and the store drops them after unlocking.
protocol ImageCacheStorage<Image>: Sendable {
    associatedtype Image: StorableImage

    /// Whether one image per key is shared, so concurrent misses should coalesce into one load.
    var sharesImages: Bool { get }

    mutating func lookup(_ key: ResourceKey, released: inout [Image]) -> CacheLookup<Image>
    mutating func store(_ image: Image, for key: ResourceKey, released: inout [Image])
    mutating func handleMemoryPressure(_ level: MemoryPressureLevel, released: inout [Image])
    /// Drops every strong reference; weak entries stay so images in use are still shared.
    mutating func removeAll(released: inout [Image])

    var strongCost: Int { get }
    var strongCount: Int { get }
    var weakCount: Int { get }
}

extension CachePolicy {
    /// A fresh, empty storage implementing this policy.
    func makeStorage<Image: StorableImage>(for _: Image.Type) -> any ImageCacheStorage<Image> {
        switch self {
        case .uncached:
            UncachedStorage<Image>()
        case .strong:
            StrongStorage<Image>()
        case .retainCountSweep:
            RetainCountSweepStorage<Image>(interval: RetainCountSweep.interval)
        case .weak:
            WeakStorage<Image>()
        case .weakWithLRU(let costLimit, let countLimit, let admissionCostLimit):
            WeakWithLRUStorage<Image>(
                costLimit: costLimit, countLimit: countLimit, admissionCostLimit: admissionCostLimit
            )
        }
    }
}

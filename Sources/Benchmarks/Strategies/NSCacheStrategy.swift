import Foundation
import WeakImageStore

/// The common hand-rolled cache: one `NSCache`, cost = decoded bytes, bounded by the same cost
/// limit as the default policy's LRU, emptied on memory warnings (as it is on iOS).
///
/// An image evicted while still on screen is decoded again at its next lookup: a duplicate.
/// swift-corelibs-foundation's NSCache (Linux) evicts the cheapest entries first, not the least
/// recently used ones as Darwin's tends to.
final class NSCacheStrategy: ImageStrategy {
    private var loader: PeerImageLoader
    private let cache: BoundedNSCache
    private var strongHits = 0

    init(root: URL, costLimit: Int) {
        loader = PeerImageLoader(root: root)
        cache = BoundedNSCache(costLimit: costLimit)
    }

    func image(named name: String) -> Bitmap? {
        guard let file = loader.resolve(name) else { return nil }
        if let cached = cache.image(for: file.cacheKey) {
            strongHits += 1
            return cached
        }
        guard let image = loader.load(file) else { return nil }
        cache.insert(image, for: file.cacheKey)
        return image
    }

    func handleMemoryPressure(_ level: MemoryPressureLevel) {
        cache.removeAll()
    }

    var counters: StrategyCounters {
        StrategyCounters(decodes: loader.decodeCount, strongHits: strongHits, evictions: cache.evictions)
    }
}

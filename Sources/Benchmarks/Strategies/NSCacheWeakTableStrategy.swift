import Foundation
import WeakImageStore

/// SDWebImage's memory cache design (`SDMemoryCache`): an `NSCache` plus a weak map, so an image
/// still in use is found after the NSCache evicted it, and put back into the NSCache.
///
/// Memory warnings empty the NSCache only; the weak map keeps finding images in use.
final class NSCacheWeakTableStrategy: ImageStrategy {
    private struct WeakBitmap {
        weak var image: Bitmap?
    }

    /// Dead entries are pruned after this many insertions, as an amortized sweep.
    private static let insertionsBetweenPrunes = 256

    private var loader: PeerImageLoader
    private let cache: BoundedNSCache
    private var weakTable: [String: WeakBitmap] = [:]
    private var insertionsSincePrune = 0
    private var strongHits = 0
    private var weakHits = 0

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
        if let alive = weakTable[file.path]?.image {
            weakHits += 1
            cache.insert(alive, for: file.cacheKey)
            return alive
        }
        guard let image = loader.load(file) else { return nil }
        cache.insert(image, for: file.cacheKey)
        weakTable[file.path] = WeakBitmap(image: image)
        insertionsSincePrune += 1
        if insertionsSincePrune >= Self.insertionsBetweenPrunes {
            weakTable = weakTable.filter { $0.value.image != nil }
            insertionsSincePrune = 0
        }
        return image
    }

    func handleMemoryPressure(_ level: MemoryPressureLevel) {
        cache.removeAll()
    }

    var counters: StrategyCounters {
        StrategyCounters(
            decodes: loader.decodeCount, strongHits: strongHits, weakHits: weakHits,
            evictions: cache.evictions)
    }
}

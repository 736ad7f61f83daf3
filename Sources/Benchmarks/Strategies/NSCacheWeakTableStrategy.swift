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
    private let cache = NSCache<NSString, Bitmap>()
    private let evictionCounter = EvictionCounter()
    private var weakTable: [String: WeakBitmap] = [:]
    private var insertionsSincePrune = 0
    private var strongHits = 0
    private var weakHits = 0

    init(root: URL, costLimit: Int) {
        loader = PeerImageLoader(root: root)
        cache.totalCostLimit = costLimit
        cache.delegate = evictionCounter
    }

    deinit {
        // swift-corelibs-foundation's NSCache links its entries both ways with strong references,
        // so entries still cached when it is freed leak; emptying it first breaks the links.
        cache.removeAllObjects()
    }

    func image(named name: String) -> Bitmap? {
        guard let file = loader.resolve(name) else { return nil }
        if let cached = cache.object(forKey: file.cacheKey) {
            strongHits += 1
            return cached
        }
        if let alive = weakTable[file.path]?.image {
            weakHits += 1
            cache.setObject(alive, forKey: file.cacheKey, cost: alive.cost)
            return alive
        }
        guard let image = loader.load(file) else { return nil }
        cache.setObject(image, forKey: file.cacheKey, cost: image.cost)
        weakTable[file.path] = WeakBitmap(image: image)
        insertionsSincePrune += 1
        if insertionsSincePrune >= Self.insertionsBetweenPrunes {
            weakTable = weakTable.filter { $0.value.image != nil }
            insertionsSincePrune = 0
        }
        return image
    }

    func handleMemoryPressure(_ level: MemoryPressureLevel) {
        cache.removeAllObjects()
    }

    var counters: StrategyCounters {
        StrategyCounters(decodes: loader.decodeCount, strongHits: strongHits, weakHits: weakHits,
                         evictions: evictionCounter.count)
    }
}

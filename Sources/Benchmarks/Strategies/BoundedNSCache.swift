import Foundation
import WeakImageStore

/// An `NSCache` of bitmaps bounded by decoded bytes, counting its evictions: the part both
/// NSCache-based peers share.
final class BoundedNSCache {
    private let cache = NSCache<NSString, Bitmap>()
    private let evictionCounter = EvictionCounter()

    init(costLimit: Int) {
        cache.totalCostLimit = costLimit
        cache.delegate = evictionCounter
    }

    deinit {
        // swift-corelibs-foundation's NSCache links its entries both ways with strong references,
        // so entries still cached when it is freed leak; emptying it first breaks the links.
        cache.removeAllObjects()
    }

    /// The evictions the cache reported to its delegate.
    var evictions: Int { evictionCounter.count }

    func image(for key: NSString) -> Bitmap? {
        cache.object(forKey: key)
    }

    func insert(_ image: Bitmap, for key: NSString) {
        cache.setObject(image, forKey: key, cost: image.cost)
    }

    func removeAll() {
        cache.removeAllObjects()
    }
}

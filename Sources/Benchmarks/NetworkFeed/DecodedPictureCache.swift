import Foundation
import WeakImageStore

/// An `NSCache` of decoded pictures by URL, as apps keep one beside `URLSession`: no limits set,
/// emptied on a memory warning as iOS empties an `NSCache` under memory pressure (Linux never
/// does, so the warning stands in for the system).
final class DecodedPictureCache: @unchecked Sendable {
    private let cache = NSCache<NSURL, Bitmap>()

    subscript(url: URL) -> Bitmap? {
        cache.object(forKey: url as NSURL)
    }

    func insert(_ picture: Bitmap, for url: URL) {
        cache.setObject(picture, forKey: url as NSURL, cost: picture.cost)
    }

    func removeAll() {
        cache.removeAllObjects()
    }
}

import Foundation
import WeakImageStore

/// An `NSCache` holding one image, shared by the benchmark's threads; the key is bridged once.
///
/// `NSCache` is documented as thread-safe (it locks internally) but not marked `Sendable`.
final class SharedNSCache: @unchecked Sendable {
    private let cache = NSCache<NSString, Bitmap>()
    private let key: NSString

    init(key: String, image: Bitmap) {
        self.key = key as NSString
        cache.setObject(image, forKey: self.key, cost: image.cost)
    }

    func lookUp() -> Bitmap? {
        cache.object(forKey: key)
    }
}

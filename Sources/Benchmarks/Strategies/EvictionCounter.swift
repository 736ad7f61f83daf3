import Foundation

/// Counts the evictions an `NSCache` reports to its delegate.
final class EvictionCounter: NSObject, NSCacheDelegate {
    private(set) var count = 0

    func cache(_ cache: NSCache<AnyObject, AnyObject>, willEvictObject obj: Any) {
        count += 1
    }
}

import Foundation
import WeakImageStore

/// The baseline of the hit-path benchmark: a `Dictionary` behind an `NSLock` (a pthread mutex on
/// Linux), the least a thread-safe cache can do per lookup.
final class LockedDictionary<Key: Hashable & Sendable>: @unchecked Sendable {
    private let lock = NSLock()
    private var images: [Key: Bitmap]

    init(_ images: [Key: Bitmap]) {
        self.images = images
    }

    func image(for key: Key) -> Bitmap? {
        lock.lock()
        defer { lock.unlock() }
        return images[key]
    }
}

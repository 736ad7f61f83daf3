import Foundation
import WeakImageStore

/// The baseline of the hit-path benchmark: a `Dictionary` behind an `NSLock` (a pthread mutex on
/// Linux), the least a thread-safe cache can do per lookup.
final class LockedDictionary: @unchecked Sendable {
    private let lock = NSLock()
    private var images: [String: Bitmap]

    init(_ images: [String: Bitmap]) {
        self.images = images
    }

    func image(named name: String) -> Bitmap? {
        lock.lock()
        defer { lock.unlock() }
        return images[name]
    }
}

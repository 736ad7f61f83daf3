import Foundation
import WeakImageStore

/// The classic recipe's in-memory cache: decoded pictures by URL, never evicted, emptied on a memory
/// warning. Its background queue writes while the UI thread reads, hence the lock.
final class SeedPictureDictionary: @unchecked Sendable {
    private let lock = NSLock()
    private var pictures: [URL: Bitmap] = [:]

    subscript(url: URL) -> Bitmap? {
        get { lock.withLock { pictures[url] } }
        set { lock.withLock { pictures[url] = newValue } }
    }

    /// Empties the dictionary; the pictures are released after the lock is let go.
    func removeAll() {
        let released = lock.withLock {
            defer { pictures = [:] }
            return pictures
        }
        withExtendedLifetime(released) {}
    }
}

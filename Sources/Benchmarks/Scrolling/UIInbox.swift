import Foundation
import WeakImageStore

/// What background work hands back to the UI thread, which drains it once per frame: the
/// benchmark's stand-in for `DispatchQueue.main.async`, since its UI thread is a plain thread.
final class UIInbox: @unchecked Sendable {
    /// An image for one slot of the row that asked for it under `tag`.
    struct Delivery: Sendable {
        let tag: Int
        let slot: Int
        /// Nil when the lookup failed.
        let image: Bitmap?
    }

    private let lock = NSLock()
    private var deliveries: [Delivery] = []

    /// Called from any thread.
    func post(_ delivery: Delivery) {
        lock.withLock { deliveries.append(delivery) }
    }

    /// Everything posted since the last call, in order; called by the UI thread.
    func drain() -> [Delivery] {
        lock.withLock {
            defer { deliveries.removeAll(keepingCapacity: true) }
            return deliveries
        }
    }
}

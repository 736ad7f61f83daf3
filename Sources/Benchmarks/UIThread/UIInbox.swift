import Dispatch
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
    /// Loads started through ``load(tag:slot:_:)`` or ``loadOnGlobalQueue(tag:slot:_:)`` and not
    /// finished yet.
    private let pendingLoads = DispatchGroup()

    /// Called from any thread.
    func post(_ delivery: Delivery) {
        lock.withLock { deliveries.append(delivery) }
    }

    /// Starts a task that runs `load` and posts its image for `slot` of the cell under `tag`, or
    /// nil if the load failed; a cancelled load posts nothing (the cell that asked is gone).
    ///
    /// - Parameter load: One of the store's async lookups.
    /// - Returns: The task, to cancel when the cell leaves the screen.
    func load(
        tag: Int, slot: Int, _ load: @escaping @Sendable () async throws(ImageStoreError) -> Bitmap
    ) -> Task<Void, Never> {
        pendingLoads.enter()
        return Task { [pendingLoads] in
            defer { pendingLoads.leave() }
            do throws(ImageStoreError) {
                let image = try await load()
                post(Delivery(tag: tag, slot: slot, image: image))
            } catch {
                // A cancelled cell wants nothing back; a failure is reported.
                if error != .cancelled { post(Delivery(tag: tag, slot: slot, image: nil)) }
            }
        }
    }

    /// Runs `load` on a global queue, as the GCD pattern does, and posts its image for `slot` of
    /// the cell under `tag` (nil if the lookup failed); the cell's tag is checked when it arrives.
    func loadOnGlobalQueue(tag: Int, slot: Int, _ load: @escaping @Sendable () -> Bitmap?) {
        pendingLoads.enter()
        DispatchQueue.global().async { [pendingLoads] in
            self.post(Delivery(tag: tag, slot: slot, image: load()))
            pendingLoads.leave()
        }
    }

    /// Waits until every load started here has ended: they have posted all they will.
    func waitForPendingLoads() {
        pendingLoads.wait()
    }

    /// Everything posted since the last call, in order; called by the UI thread.
    func drain() -> [Delivery] {
        lock.withLock {
            defer { deliveries.removeAll(keepingCapacity: true) }
            return deliveries
        }
    }
}

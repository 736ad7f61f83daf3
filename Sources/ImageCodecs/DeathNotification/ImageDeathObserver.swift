/// What a ``DeathNotifier`` reports to: a store's engine.
///
/// `imageDied(_:)` runs inside the image's deinit, on any thread, at any time; it may take the
/// store's lock, so the store must never let one of its images die while holding that lock.
package protocol ImageDeathObserver: AnyObject, Sendable {
    /// The image registered under `token` has been freed.
    func imageDied(_ token: DeathToken)
}

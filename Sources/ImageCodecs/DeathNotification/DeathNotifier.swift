/// Tells every store that registered an image the moment that image is freed.
///
/// One notifier belongs to one image and dies with it: ``Bitmap`` holds it as a stored property,
/// `UIImage`/`NSImage` carry it as an associated object. Its `deinit` runs while the image is
/// being freed, when weak references to the image already read nil, on whichever thread let go
/// of the image last; it reports to each store that is still alive.
///
/// Registration takes a small lock of the notifier's own; reporting takes no notifier lock, only
/// each store's lock, so a store may register while holding its lock (store lock, then notifier
/// lock) and a report never holds the notifier's lock while it takes a store's.
package final class DeathNotifier: Sendable {
    private let registrations = Lock<[DeathRegistration]>([])

    package init() {}

    /// Asks for `registration.observer` to be told when the image dies.
    package func register(_ registration: DeathRegistration) {
        registrations.withLock { $0.append(registration) }
    }

    /// The registrations so far; for tests.
    var _registrationCount: Int {
        registrations.withLock { $0.count }
    }

    deinit {
        // Nobody else can reach the notifier any more, so the list is final; copy it out and
        // report with no lock of ours held.
        let registrations = registrations.withLock { $0 }
        for registration in registrations {
            registration.observer?.imageDied(registration.token)
        }
    }
}

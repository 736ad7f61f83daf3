#if canImport(ObjectiveC)
import Foundation
import ObjectiveC

extension DeathNotifier {
    /// An object whose address is the association's key; it lives as long as the process.
    private final class AssociationKey: Sendable {}
    private static let associationKeyObject = AssociationKey()
    private static var associationKey: UnsafeRawPointer {
        UnsafeRawPointer(Unmanaged.passUnretained(associationKeyObject).toOpaque())
    }
    /// Makes attaching atomic, so two stores registering one image at once share one notifier.
    private static let attachment = Lock(())

    /// The notifier attached to `object`, attaching one on first use.
    ///
    /// The runtime releases associated objects while the object is deallocated, after weak
    /// references to it stopped returning it, so the notifier's `deinit` reports the death
    /// (`objc_setAssociatedObject` with `OBJC_ASSOCIATION_RETAIN_NONATOMIC`).
    static func attached(to object: NSObject) -> DeathNotifier {
        attachment.withLock { _ in
            if let existing = objc_getAssociatedObject(object, associationKey) as? DeathNotifier {
                return existing
            }
            let notifier = DeathNotifier()
            objc_setAssociatedObject(object, associationKey, notifier, .OBJC_ASSOCIATION_RETAIN_NONATOMIC)
            return notifier
        }
    }
}
#endif

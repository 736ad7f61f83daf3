#if canImport(ObjectiveC)
import ObjectiveC
#endif

/// An image type that carries its own ``DeathNotifier``, as ``Bitmap`` does.
package protocol DeathReporting: AnyObject {
    /// The notifier that reports this instance's death; the same for the instance's lifetime.
    var deathNotifier: DeathNotifier { get }
}

extension DeathNotifier {
    /// The notifier that will report `image`'s death, or nil for image types that cannot report
    /// it (those are found dead by amortized pruning instead).
    ///
    /// | image | notifier |
    /// |---|---|
    /// | ``Bitmap`` (any ``DeathReporting`` type) | its own |
    /// | any `NSObject`, such as `UIImage`, `NSImage` | an associated object, attached on first use |
    /// | anything else | none |
    ///
    /// - Complexity: A dynamic cast or two; called once per decoded image, never on a hit.
    package static func of(_ image: any AnyObject & Sendable) -> DeathNotifier? {
        if let reporting = image as? any DeathReporting {
            return reporting.deathNotifier
        }
        #if canImport(ObjectiveC)
        if let object = image as? NSObject {
            return attached(to: object)
        }
        #endif
        return nil
    }
}

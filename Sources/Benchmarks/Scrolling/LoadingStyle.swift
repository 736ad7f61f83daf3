/// How the UI thread asks for a row's images.
enum LoadingStyle: CaseIterable {
    /// `loadImage(named:)` on the UI thread, the `UIImage(named:)` way: a miss decodes there.
    case sync
    /// The synchronous API on a global queue, the result handed back to the UI thread and
    /// dropped if the row's tag changed meanwhile; nothing is cancelled.
    case gcd
    /// `cachedImage(named:)` at once, else `fetchImage(named:priority:)` in a task cancelled when the
    /// row leaves, plus `prefetch(named:)` of the next screen, cancelled once scrolled past.
    case async

    var label: String {
        switch self {
        case .sync: "sync"
        case .gcd: "GCD"
        case .async: "async"
        }
    }
}

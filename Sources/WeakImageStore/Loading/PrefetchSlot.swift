/// One request of a prefetch, as a waiter refers to it.
struct PrefetchSlot: Sendable {
    weak var prefetch: ImagePrefetch?
    let index: Int
}

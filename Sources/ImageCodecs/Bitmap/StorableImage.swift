/// A decoded image that a store (WeakImageStore's `ImageStore`) can share and cache.
///
/// Conformers are reference types so the store can hand out one shared instance and hold it
/// weakly; they are `Sendable` because the store hands them across threads.
public protocol StorableImage: AnyObject, Sendable {
    /// The number of bytes the decoded pixels occupy in memory.
    ///
    /// The store's strong layer is bounded by the sum of these costs, and only images whose cost
    /// is at most the admission limit are kept between uses.
    var cost: Int { get }
}

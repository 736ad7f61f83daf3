/// A map from key to a weakly held image: shared while anyone holds it, gone when nobody does.
///
/// Dead entries are pruned in bulk once the insertions since the last prune reach the number of
/// entries alive after it, so pruning costs amortized O(1) per insertion and the table stays
/// proportional to live plus recently dead entries.
struct WeakTable<Key: Hashable & Sendable>: Sendable {
    private struct WeakReference: Sendable {
        weak var object: (any AnyObject & Sendable)?
        let cost: Int

    }

    /// Insertions between prunes never fall below this, so tiny tables are not pruned constantly.
    private static var minimumPruneInterval: Int { 32 }

    private var entries: [Key: WeakReference] = [:]
    private var insertionsSincePrune = 0
    private var pruneInterval = minimumPruneInterval

    /// The number of entries, including dead ones not pruned yet.
    var count: Int { entries.count }

    /// The image for `key` if it is still alive.
    func image(for key: Key) -> CachedImage? {
        // Reading through the index loads the weak reference in place instead of copying it.
        guard let index = entries.index(forKey: key), let object = entries.values[index].object else { return nil }
        return CachedImage(object: object, cost: entries.values[index].cost)
    }

    mutating func insert(_ image: CachedImage, for key: Key) {
        entries[key] = WeakReference(object: image.object, cost: image.cost)
        insertionsSincePrune += 1
        if insertionsSincePrune >= pruneInterval {
            pruneDeadEntries()
        }
    }

    /// Removes the entries whose image has died.
    ///
    /// - Complexity: O(number of entries).
    mutating func pruneDeadEntries() {
        entries = entries.filter { $0.value.object != nil }
        insertionsSincePrune = 0
        pruneInterval = max(Self.minimumPruneInterval, entries.count)
    }
}

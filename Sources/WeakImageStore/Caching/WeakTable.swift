/// A map from key to a weakly held image: shared while anyone holds it, gone when nobody does.
///
/// Dead entries are pruned in bulk once the insertions since the last prune reach the number of
/// entries alive after it, so pruning costs amortized O(1) per insertion and the table stays
/// proportional to live plus recently dead entries.
struct WeakTable<Key: Hashable & Sendable, Image: StorableImage>: Sendable {
    private struct WeakReference: Sendable {
        weak var image: Image?
    }

    /// Insertions between prunes never fall below this, so tiny tables are not pruned constantly.
    private static var minimumPruneInterval: Int { 32 }

    private var entries: [Key: WeakReference] = [:]
    private var insertionsSincePrune = 0
    private var pruneInterval = minimumPruneInterval

    /// The number of entries, including dead ones not pruned yet.
    var count: Int { entries.count }

    /// The image for `key` if it is still alive.
    func image(for key: Key) -> Image? {
        entries[key]?.image
    }

    mutating func insert(_ image: Image, for key: Key) {
        entries[key] = WeakReference(image: image)
        insertionsSincePrune += 1
        if insertionsSincePrune >= pruneInterval {
            pruneDeadEntries()
        }
    }

    /// Removes the entries whose image has died.
    ///
    /// - Complexity: O(number of entries).
    mutating func pruneDeadEntries() {
        entries = entries.filter { $0.value.image != nil }
        insertionsSincePrune = 0
        pruneInterval = max(Self.minimumPruneInterval, entries.count)
    }
}

/// A map from key to a weakly held image: shared while anyone holds it, gone when nobody does.
///
/// Entries live in slot arrays, found by key through a dictionary or directly through a
/// ``SlotHint``. An entry inserted with a watched ``DeathToken`` is removed by
/// ``removeEntry(for:ifToken:)`` when its image reports its death, so such entries are never
/// dead for long and never scanned. Unwatched entries are pruned in bulk once the unwatched
/// insertions since the last prune reach the number of entries alive after it, so pruning costs
/// amortized O(1) per insertion and the table stays proportional to live plus recently dead
/// entries.
struct WeakTable<Key: Hashable & Sendable>: Sendable {
    /// A slot's weak reference, boxed: reading a weak field of a class loads the reference in
    /// place, where an array of structs copies the weak reference (a side-table increment and
    /// decrement) on every hit. Only touched by its table, under the store's lock.
    private final class WeakReference: @unchecked Sendable {
        weak var object: (any AnyObject & Sendable)?
    }

    /// Insertions between prunes never fall below this, so tiny tables are not pruned constantly.
    private static var minimumPruneInterval: Int { 32 }

    private var slotIndex: [Key: Int] = [:]
    // Parallel slot arrays, so a lookup compares the key and loads the reference in place. A
    // free slot keeps its last key until it is reused.
    private var keys: [Key] = []
    private var occupied: [Bool] = []
    private var costs: [Int] = []
    private var tokens: [DeathToken] = []
    private var references: [WeakReference] = []
    private var freeSlots: [Int] = []
    private var insertionsSincePrune = 0
    private var pruneInterval = minimumPruneInterval

    /// The number of entries, including dead unwatched ones not pruned yet.
    var count: Int { slotIndex.count }

    /// The image for `key` if it is still alive.
    func image(for key: Key) -> CachedImage? {
        var hint = -1
        return image(for: key, hint: &hint)
    }

    /// The image for `key` if it is still alive, looked up through `hint` when it is right;
    /// `hint` is updated to the key's slot.
    func image(for key: Key, hint: inout Int) -> CachedImage? {
        if !keys.indices.contains(hint) || !holds(key, at: hint) {
            guard let slot = slotIndex[key] else { return nil }
            hint = slot
        }
        let slot = hint
        return references[slot].object.map { CachedImage(object: $0, cost: costs[slot]) }
    }

    /// Whether `slot` holds `key`, compared in place: comparing optionals would copy both keys
    /// (retaining and releasing their strings) on every hit.
    @inline(__always)
    private func holds(_ key: Key, at slot: Int) -> Bool {
        occupied[slot] && keys.withUnsafeBufferPointer { $0.baseAddress.unsafelyUnwrapped[slot] == key }
    }

    /// Registers `image` weakly under `key`, replacing any entry for the key.
    ///
    /// - Parameter token: What the image reports its death under, or ``DeathToken/unwatched``.
    mutating func insert(_ image: CachedImage, for key: Key, token: DeathToken = .unwatched) {
        let slot: Int
        if let existing = slotIndex[key] {
            slot = existing
        } else if let free = freeSlots.popLast() {
            slot = free
            slotIndex[key] = slot
        } else {
            slot = keys.count
            keys.append(key)
            occupied.append(true)
            costs.append(0)
            tokens.append(.unwatched)
            references.append(WeakReference())
            slotIndex[key] = slot
        }
        keys[slot] = key
        occupied[slot] = true
        costs[slot] = image.cost
        tokens[slot] = token
        references[slot].object = image.object
        guard !token.isWatched else { return }
        insertionsSincePrune += 1
        if insertionsSincePrune >= pruneInterval {
            pruneDeadEntries()
        }
    }

    /// Removes the entry for `key` if it is still the one inserted with `token`: the image
    /// registered under `token` died, and a newer image under the same key must stay.
    ///
    /// Never loads the weak reference, so it frees nothing and is safe inside a death report.
    mutating func removeEntry(for key: Key, ifToken token: DeathToken) {
        guard let slot = slotIndex[key], tokens[slot] == token else { return }
        slotIndex[key] = nil
        occupied[slot] = false
        tokens[slot] = .unwatched
        freeSlots.append(slot)
    }

    /// Removes the unwatched entries whose image has died; watched entries are removed by
    /// their death reports and are not looked at.
    ///
    /// - Complexity: O(number of slots).
    mutating func pruneDeadEntries() {
        // Testing a weak reference retains and releases its image: never done for watched
        // images, whose death would report to the store from under its own lock.
        for slot in keys.indices where occupied[slot] && !tokens[slot].isWatched && references[slot].object == nil {
            slotIndex[keys[slot]] = nil
            occupied[slot] = false
            freeSlots.append(slot)
        }
        insertionsSincePrune = 0
        pruneInterval = max(Self.minimumPruneInterval, slotIndex.count)
    }
}

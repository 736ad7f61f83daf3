/// A least-recently-used cache bounded by total cost and count, with O(1) lookup, insertion and
/// eviction.
///
/// Entries live in one array linked into a recency list by index (no per-node allocation);
/// freed slots are reused. The cache never frees an image itself: evicted images are appended to
/// an `evicted` array for the caller to release outside its lock.
struct LRUCache<Key: Hashable & Sendable>: Sendable {
    private struct Node: Sendable {
        var key: Key
        var image: CachedImage?
        var cost: Int
        var newer: Int
        var older: Int
    }

    private static var none: Int { -1 }

    private(set) var costLimit: Int
    private(set) var countLimit: Int
    private(set) var totalCost = 0
    private var slots: [Key: Int] = [:]
    private var nodes: [Node] = []
    private var freeSlots: [Int] = []
    private var newest = none
    private var oldest = none

    /// - Parameters:
    ///   - costLimit: The most summed cost held; not negative.
    ///   - countLimit: The most entries held; not negative.
    init(costLimit: Int, countLimit: Int) {
        precondition(costLimit >= 0 && countLimit >= 0, "LRU limits must not be negative")
        self.costLimit = costLimit
        self.countLimit = countLimit
    }

    var count: Int { slots.count }

    /// The image for `key`, which becomes the most recently used.
    mutating func image(for key: Key) -> CachedImage? {
        var hint = -1
        return image(for: key, hint: &hint)
    }

    /// The image for `key`, which becomes the most recently used, looked up through `hint` when
    /// it is right; `hint` is updated to the key's slot.
    mutating func image(for key: Key, hint: inout Int) -> CachedImage? {
        if !nodes.indices.contains(hint) || nodes[hint].image == nil || nodes[hint].key != key {
            guard let slot = slots[key] else { return nil }
            hint = slot
        }
        moveToNewest(hint)
        return nodes[hint].image
    }

    /// Inserts or replaces `image` as the most recently used, then evicts the least recently used
    /// entries until the limits hold. An image costing more than the cost limit is not inserted.
    mutating func insert(_ image: CachedImage, for key: Key, evicted: inout [CachedImage]) {
        let cost = image.cost
        if let slot = slots[key] {
            totalCost += cost - nodes[slot].cost
            nodes[slot].cost = cost
            if let previous = nodes[slot].image, previous.object !== image.object { evicted.append(previous) }
            nodes[slot].image = image
            moveToNewest(slot)
        } else {
            guard cost <= costLimit, countLimit > 0 else { return }
            let slot = allocateSlot(Node(key: key, image: image, cost: cost, newer: Self.none, older: Self.none))
            slots[key] = slot
            totalCost += cost
            linkAsNewest(slot)
        }
        trim(toCost: costLimit, count: countLimit, evicted: &evicted)
    }

    /// Evicts least recently used entries until at most `cost` and `count` remain.
    mutating func trim(toCost cost: Int, count: Int, evicted: inout [CachedImage]) {
        while totalCost > cost || slots.count > count, oldest != Self.none {
            remove(slot: oldest, evicted: &evicted)
        }
    }

    /// Evicts least recently used entries until their summed cost reaches `cost` or the cache
    /// is empty.
    ///
    /// - Returns: The summed cost evicted.
    @discardableResult
    mutating func evictLeastRecentlyUsed(cost: Int, evicted: inout [CachedImage]) -> Int {
        var evictedCost = 0
        while evictedCost < cost, oldest != Self.none {
            evictedCost += nodes[oldest].cost
            remove(slot: oldest, evicted: &evicted)
        }
        return evictedCost
    }

    /// Evicts everything.
    mutating func removeAll(evicted: inout [CachedImage]) {
        evicted.reserveCapacity(evicted.count + slots.count)
        for node in nodes {
            if let image = node.image { evicted.append(image) }
        }
        slots.removeAll()
        nodes.removeAll()
        freeSlots.removeAll()
        newest = Self.none
        oldest = Self.none
        totalCost = 0
    }

    /// Keys from most to least recently used. For tests and debugging.
    var keysByRecency: [Key] {
        var keys: [Key] = []
        var slot = newest
        while slot != Self.none {
            keys.append(nodes[slot].key)
            slot = nodes[slot].older
        }
        return keys
    }

    /// Checks the internal links and totals; for tests.
    func _checkInvariants() {
        var seen = 0
        var cost = 0
        var slot = newest
        var newer = Self.none
        while slot != Self.none {
            precondition(nodes[slot].newer == newer, "broken recency link")
            precondition(slots[nodes[slot].key] == slot, "map and list disagree")
            precondition(nodes[slot].image != nil, "listed node without an image")
            seen += 1
            cost += nodes[slot].cost
            newer = slot
            slot = nodes[slot].older
        }
        precondition(newer == oldest, "oldest is not the end of the list")
        precondition(seen == slots.count, "map count \(slots.count) != list count \(seen)")
        precondition(cost == totalCost, "total cost \(totalCost) != sum of costs \(cost)")
        precondition(seen + freeSlots.count == nodes.count, "leaked slots")
    }

    private mutating func remove(slot: Int, evicted: inout [CachedImage]) {
        unlink(slot)
        slots[nodes[slot].key] = nil
        totalCost -= nodes[slot].cost
        if let image = nodes[slot].image { evicted.append(image) }
        nodes[slot].image = nil
        freeSlots.append(slot)
    }

    private mutating func allocateSlot(_ node: Node) -> Int {
        if let slot = freeSlots.popLast() {
            nodes[slot] = node
            return slot
        }
        nodes.append(node)
        return nodes.count - 1
    }

    private mutating func moveToNewest(_ slot: Int) {
        guard slot != newest else { return }
        unlink(slot)
        linkAsNewest(slot)
    }

    private mutating func linkAsNewest(_ slot: Int) {
        nodes[slot].newer = Self.none
        nodes[slot].older = newest
        if newest != Self.none { nodes[newest].newer = slot }
        newest = slot
        if oldest == Self.none { oldest = slot }
    }

    private mutating func unlink(_ slot: Int) {
        let (newer, older) = (nodes[slot].newer, nodes[slot].older)
        if newer != Self.none { nodes[newer].older = older } else { newest = older }
        if older != Self.none { nodes[older].newer = newer } else { oldest = newer }
        nodes[slot].newer = Self.none
        nodes[slot].older = Self.none
    }
}

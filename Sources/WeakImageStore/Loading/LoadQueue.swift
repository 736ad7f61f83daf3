/// Loads waiting for a loading thread, highest priority first and first come first served within a
/// priority.
///
/// One FIFO per priority. A load whose priority changes is entered again under its new priority
/// with a new ticket; the entry it leaves behind is stale and skipped when reached, so changing a
/// priority costs O(1) and taking the next load amortized O(1).
struct LoadQueue: Sendable {
    struct Entry: Sendable {
        let load: LoadID
        let ticket: Int
    }

    private var buckets = [[Entry]](repeating: [], count: ImageLoadPriority.allCases.count)
    private var heads = [Int](repeating: 0, count: ImageLoadPriority.allCases.count)
    private var nextTicket = 0

    /// Appends `load` at `priority` and returns its ticket, which ``next(isCurrent:)`` checks.
    mutating func enqueue(_ load: LoadID, at priority: ImageLoadPriority) -> Int {
        nextTicket += 1
        buckets[priority.rawValue].append(Entry(load: load, ticket: nextTicket))
        return nextTicket
    }

    /// Removes and returns the first entry of the highest non-empty priority that `isCurrent`
    /// accepts, dropping the stale entries it passes.
    mutating func next(isCurrent: (Entry) -> Bool) -> LoadID? {
        for priority in buckets.indices.reversed() {
            while heads[priority] < buckets[priority].count {
                let entry = buckets[priority][heads[priority]]
                heads[priority] += 1
                compact(priority)
                if isCurrent(entry) { return entry.load }
            }
        }
        return nil
    }

    /// Forgets every entry.
    mutating func removeAll() {
        for priority in buckets.indices {
            buckets[priority].removeAll()
            heads[priority] = 0
        }
    }

    /// Drops the consumed prefix once it is at least half the bucket, keeping memory proportional
    /// to the entries still queued.
    private mutating func compact(_ priority: Int) {
        let head = heads[priority]
        if head == buckets[priority].count {
            buckets[priority].removeAll(keepingCapacity: true)
            heads[priority] = 0
        } else if head >= 64, head * 2 >= buckets[priority].count {
            buckets[priority].removeFirst(head)
            heads[priority] = 0
        }
    }
}

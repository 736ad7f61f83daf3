/// Loads waiting for a loading thread: highest priority first, and the newest first within a
/// priority.
///
/// Newest first because in a scrolling list the latest request is the cell that just appeared,
/// which stays on screen the longest; the older requests of the same priority belong to cells
/// that are on their way out (and are cancelled when they leave). Served oldest first, slow
/// scrolling through a feed of 2048 × 1536 JPEG photos decoded 29 photos nobody saw; newest first,
/// 0 or 1 (the benchmark's scrolling section, 2 loading threads).
///
/// One stack per priority. A load whose priority changes is entered again under its new priority
/// with a new ticket; the entry it leaves behind is stale and skipped when reached, so changing a
/// priority costs O(1) and taking the next load amortized O(1).
struct LoadQueue: Sendable {
    struct Entry: Sendable {
        let load: LoadID
        let ticket: Int
    }

    private var buckets = [[Entry]](repeating: [], count: ImageLoadPriority.allCases.count)
    private var nextTicket = 0

    /// Appends `load` at `priority` and returns its ticket, which ``next(isCurrent:)`` checks.
    mutating func enqueue(_ load: LoadID, at priority: ImageLoadPriority) -> Int {
        nextTicket += 1
        buckets[priority.rawValue].append(Entry(load: load, ticket: nextTicket))
        return nextTicket
    }

    /// Removes and returns the newest entry of the highest non-empty priority that `isCurrent`
    /// accepts, dropping the stale entries it passes.
    mutating func next(isCurrent: (Entry) -> Bool) -> LoadID? {
        for priority in buckets.indices.reversed() {
            while let entry = buckets[priority].popLast() {
                if isCurrent(entry) { return entry.load }
            }
        }
        return nil
    }

    /// Forgets every entry.
    mutating func removeAll() {
        for priority in buckets.indices {
            buckets[priority].removeAll()
        }
    }
}

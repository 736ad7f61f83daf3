/// The order of a ``CoalescingWorkQueue``'s queued jobs: highest priority first, and the newest
/// first within a priority.
///
/// Newest first because in a scrolling list the latest request is the cell that just appeared,
/// which stays on screen the longest; the older requests of the same priority belong to cells
/// that are on their way out (and are cancelled when they leave). BENCHMARKS.md has the
/// scrolling run that decided it.
///
/// One stack per priority. A job whose priority changes is pushed again under its new priority
/// with a new ticket; the entry it leaves behind is stale and skipped when reached, so changing a
/// priority costs O(1) and taking the next job amortized O(1).
struct PriorityStacks: Sendable {
    private struct Entry: Sendable {
        let id: Int
        let ticket: Int
    }

    private var stacks = [[Entry]](repeating: [], count: ImageLoadPriority.allCases.count)
    private var lastTicket = 0

    /// Pushes `id` at `priority` and returns its ticket, which ``next(isCurrent:)`` checks.
    mutating func push(_ id: Int, at priority: ImageLoadPriority) -> Int {
        lastTicket += 1
        stacks[priority.rawValue].append(Entry(id: id, ticket: lastTicket))
        return lastTicket
    }

    /// Removes and returns the newest entry of the highest non-empty priority, at least
    /// `minimum`, that `isCurrent` accepts (given the id and its ticket), dropping the stale
    /// entries it passes.
    mutating func next(
        atLeast minimum: ImageLoadPriority = .veryLow, isCurrent: (_ id: Int, _ ticket: Int) -> Bool
    ) -> Int? {
        for priority in stacks.indices.reversed() where priority >= minimum.rawValue {
            while let entry = stacks[priority].popLast() {
                if isCurrent(entry.id, entry.ticket) { return entry.id }
            }
        }
        return nil
    }

    /// Forgets every entry.
    mutating func removeAll() {
        for priority in stacks.indices {
            stacks[priority].removeAll()
        }
    }
}

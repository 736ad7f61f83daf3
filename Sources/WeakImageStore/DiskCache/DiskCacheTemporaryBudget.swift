/// The bytes that downloads bound for a disk cache may keep in its `tmp/` folder at once —
/// bodies being received and partial bodies kept for resuming — so that the folder never holds
/// more than twice the cache's size limit: its entries, within the limit, and at most as much
/// again in downloads. Without it, six 60 MiB downloads into a cache limited to 10 MiB would
/// leave 360 MiB in `tmp/`.
///
/// A download takes a ``Reservation`` when it creates its file, grows it before each append (a
/// refusal ends the download), and releases it by dropping the reservation once the file is
/// deleted or taken into the cache. The budget is this process's: other processes sharing the
/// folder have their own.
final class DiskCacheTemporaryBudget: Sendable {
    /// The bytes of one download's file, held until the reservation is released or deallocated.
    final class Reservation: Sendable {
        private let budget: DiskCacheTemporaryBudget
        private let held = Lock(0)

        fileprivate init(budget: DiskCacheTemporaryBudget) {
            self.budget = budget
        }

        /// The bytes reserved so far.
        var bytes: Int {
            held.withLock { $0 }
        }

        /// Reserves `count` more bytes for the file, unless the budget cannot hold them.
        ///
        /// - Returns: Whether they were reserved; on false, nothing more was.
        func grow(by count: Int) -> Bool {
            precondition(count >= 0, "a file grows by a positive count")
            guard budget.reserve(count) else { return false }
            held.withLock { $0 += count }
            return true
        }

        /// Returns every byte reserved to the budget: the file is gone, or in the cache.
        func release() {
            let count = held.withLock { held in
                defer { held = 0 }
                return held
            }
            budget.release(count)
        }

        deinit {
            release()
        }
    }

    private struct State {
        var reserved = 0
        var refusals = 0
    }

    /// The most bytes reserved at once.
    let limit: Int
    private let state = Lock(State())

    init(limit: Int) {
        precondition(limit > 0, "the limit must be positive")
        self.limit = limit
    }

    /// The bytes reserved now, by every reservation.
    var reservedBytes: Int {
        state.withLock { $0.reserved }
    }

    /// How many times a reservation could not grow.
    var refusals: Int {
        state.withLock { $0.refusals }
    }

    /// A reservation of no bytes yet, for one file.
    func makeReservation() -> Reservation {
        Reservation(budget: self)
    }

    private func reserve(_ count: Int) -> Bool {
        state.withLock { state in
            guard count <= limit - state.reserved else {
                state.refusals += 1
                return false
            }
            state.reserved += count
            return true
        }
    }

    private func release(_ count: Int) {
        state.withLock { $0.reserved -= count }
    }
}

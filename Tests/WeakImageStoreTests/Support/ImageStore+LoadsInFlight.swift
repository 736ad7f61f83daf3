@testable import ImageCodecs
@testable import WeakImageStore

extension ImageStore {
    /// How many waiters each load in flight has, largest first: `[3]` once three lookups of one
    /// image, spelled differently, have joined one load (a lookup whose request must first be
    /// resolved joins only then, so the statistics count it as a miss).
    var waitersPerLoadInFlight: [Int] {
        engine._withState { $0.loads.inFlight.operations.values.map(\.waiters.count) }.sorted(by: >)
    }
}

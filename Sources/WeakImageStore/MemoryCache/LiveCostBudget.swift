/// The state of a store's live-cost limit beyond the limit itself: whether in-use images alone
/// exceed it right now, how often they began to, and who wants to hear about it.
struct LiveCostBudget: Sendable {
    /// Times in-use images alone began to exceed the limit.
    private(set) var overruns = 0
    /// Whether the latest overrun has not ended yet; it ends when live bytes fit again.
    private(set) var isOverrun = false
    private var observers: [Int: AsyncStream<BudgetOverrun>.Continuation] = [:]
    private var lastObserverID = 0

    init() {}

    /// Records that in-use images alone exceed the limit.
    ///
    /// - Returns: The observers to tell, or nil when this overrun was reported already.
    mutating func beginOverrun() -> [AsyncStream<BudgetOverrun>.Continuation]? {
        guard !isOverrun else { return nil }
        isOverrun = true
        overruns += 1
        return Array(observers.values)
    }

    /// Live bytes fit the limit again.
    mutating func endOverrun() {
        isOverrun = false
    }

    /// Adds an observer of overruns.
    ///
    /// - Returns: The id to remove it with.
    mutating func addObserver(_ continuation: AsyncStream<BudgetOverrun>.Continuation) -> Int {
        lastObserverID += 1
        observers[lastObserverID] = continuation
        return lastObserverID
    }

    mutating func removeObserver(_ id: Int) {
        observers[id] = nil
    }

    /// Every observer, for finishing them.
    var allObservers: [AsyncStream<BudgetOverrun>.Continuation] { Array(observers.values) }
}

/// The moment the images in use alone came to exceed a store's live-cost limit.
///
/// The store's LRU gave way completely and live bytes still exceed the limit: everything alive
/// is held by the app. That is the app's own leak or oversize showing (see
/// ``ImageStore/budgetOverruns()``).
public struct BudgetOverrun: Sendable, Equatable {
    /// The bytes alive when the overrun began: ``ImageStoreStatistics/liveCost``.
    public var liveCost: Int
    /// The limit they exceed: the policy's `liveCostLimit`.
    public var liveCostLimit: Int

    /// Creates an overrun record.
    ///
    /// - Parameters:
    ///   - liveCost: The bytes alive.
    ///   - liveCostLimit: The limit they exceed.
    public init(liveCost: Int, liveCostLimit: Int) {
        self.liveCost = liveCost
        self.liveCostLimit = liveCostLimit
    }
}

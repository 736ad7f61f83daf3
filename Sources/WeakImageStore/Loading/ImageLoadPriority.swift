/// How urgently an asynchronous load is wanted.
///
/// Queued loads start in order of the highest priority among their waiters, the newest request
/// first within a priority: a visible cell asking at `.normal` or `.high` overtakes a prefetch
/// at `.low`, and the cell that appeared last (the one staying on screen longest) goes first. The order is recomputed whenever a waiter joins or leaves a load.
public enum ImageLoadPriority: Int, Sendable, Comparable, CaseIterable {
    /// Work nobody waits for yet, such as prefetching far ahead.
    case veryLow
    /// Prefetching the next screen. The default of ``ImageStore/prefetch(named:priority:)``.
    case low
    /// An image about to be shown. The default of the asynchronous lookups.
    case normal
    /// An image on screen now.
    case high
    /// An image the user is waiting for, such as the photo they just opened.
    case veryHigh

    public static func < (lhs: ImageLoadPriority, rhs: ImageLoadPriority) -> Bool {
        lhs.rawValue < rhs.rawValue
    }
}

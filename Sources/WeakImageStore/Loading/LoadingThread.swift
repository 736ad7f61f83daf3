/// The two kinds of loading thread.
///
/// Up to `maximumConcurrentLoads` regular threads run queued loads, highest priority first. When
/// all of them are busy and one of them runs background work (a prefetched photo, say) as work
/// for the screen arrives, that background load is paused at its decoder's next poll and one
/// more thread, the visible lane, runs the queued loads at ``visiblePriority`` or above; when
/// none is left the lane ends and the paused load goes on where it was. A visible row's disk hit
/// or decode never waits for a prefetch to finish, and never shares the processor with it. Work
/// on screen behind other work on screen waits, as before: in a fling most of it is for rows
/// that leave before another decode would end.
enum LoadingThread: Sendable, Equatable {
    case regular
    case visibleLane

    /// The lowest priority the visible lane runs: `.high`, what views on screen ask at.
    static let visiblePriority = ImageLoadPriority.high
}

/// Decides which rows of a scrolling list to load ahead, and how urgently: from the rows on
/// screen, how fast they move, and how long one row's images take to be ready.
///
/// A value with no UIKit in it: feed it the visible rows as they change (every frame, or from
/// `scrollViewDidScroll`), ask for a ``Plan``, and load what it lists. ``ScrollPrefetcher``
/// does exactly that against an ``ImageStore``.
///
/// | the list | the plan loads ahead |
/// |---|---|
/// | still, or read a few rows a second | ``minimumScreensAhead`` (a screen) |
/// | moving at `v` rows a second, a row ready in `t` seconds | a screen plus `v × t × safetyFactor` rows, nearest first |
/// | flung faster than any lookahead up to ``maximumScreensAhead`` can keep up with | one screen, as a plain prefetch does: rows flying by are not worth a transfer each |
///
/// Rows behind the scroll (more than ``rowsBehind``) leave the plan; ``Plan/keptRows`` is wider
/// than the rows to start, so a row is not cancelled and started again as the speed wavers.
public struct PrefetchPlanner: Sendable, Equatable {
    /// A row to have loading, and at what priority.
    public struct Row: Sendable, Hashable {
        public var index: Int
        public var priority: ImageLoadPriority

        /// Creates a row of the plan.
        public init(index: Int, priority: ImageLoadPriority) {
            self.index = index
            self.priority = priority
        }
    }

    /// What to load now.
    public struct Plan: Sendable, Equatable {
        /// The rows to have loading: the visible ones, then those ahead nearest first, then the
        /// ones just behind.
        public var rows: [Row]
        /// Rows already loading that may go on: the planned rows and a margin ahead of them.
        /// A load outside it is wasted work to cancel.
        public var keptRows: Range<Int>
        /// The scroll's speed in rows per second, positive downwards (towards higher rows).
        public var rowsPerSecond: Double
        /// Rows loaded ahead of the visible ones.
        public var rowsAhead: Int
        /// Whether the list moves too fast for a lookahead to keep up (then one screen ahead is
        /// planned, at `.low`).
        public var isFling: Bool
    }

    /// The rows in the list.
    public var rowCount: Int
    /// How much longer than one load's estimate the lookahead covers: 2. The estimate is an
    /// average over the host's images, small ones included, and a few transfers take far longer.
    public var safetyFactor = 2.0
    /// Screens (visible row counts) loaded ahead even when the list is still: 1, what a reader
    /// scrolls to next.
    public var minimumScreensAhead = 1.0
    /// The most rows loaded ahead, in screens (visible row counts): 3.
    public var maximumScreensAhead = 3.0
    /// Rows kept behind the visible ones, for a scroll that turns back: 1.
    public var rowsBehind = 1
    /// Seconds of scrolling the speed is averaged over: 1, long enough that a reader's pauses
    /// between flicks do not swing the lookahead.
    public var speedWindow = 1.0

    /// The visible rows as last reported.
    public private(set) var visibleRows: Range<Int> = 0..<0
    /// (seconds, first visible row), oldest first, covering ``speedWindow``.
    private var history: [Sample] = []
    /// +1 downwards, -1 upwards: the last direction the list moved in.
    private var direction = 1

    private struct Sample: Sendable, Equatable {
        let seconds: Double
        let top: Int
    }

    /// Creates a planner for a list of `rowCount` rows.
    public init(rowCount: Int) {
        self.rowCount = max(0, rowCount)
    }

    /// Records the rows on screen at `seconds` (any clock that only goes forward).
    public mutating func visibleRowsChanged(_ rows: Range<Int>, at seconds: Double) {
        if let last = history.last {
            if rows.lowerBound != last.top { direction = rows.lowerBound > last.top ? 1 : -1 }
            if seconds < last.seconds { history.removeAll() }
        }
        visibleRows = rows
        history.append(Sample(seconds: seconds, top: rows.lowerBound))
        // Keep the newest sample at least a window old as the window's start.
        while history.count > 2, seconds - history[1].seconds >= speedWindow { history.removeFirst() }
    }

    /// The scroll's speed in rows per second, positive downwards: over the last
    /// ``speedWindow``, or over its last quarter when that is faster, so a scroll that starts or
    /// speeds up looks ahead at once while one that slows down keeps its lookahead a while.
    public var rowsPerSecond: Double {
        guard let last = history.last else { return 0 }
        func speed(since start: Double) -> Double {
            guard let first = history.last(where: { $0.seconds <= start }) ?? history.first,
                last.seconds - first.seconds > 0.001
            else { return 0 }
            return Double(last.top - first.top) / (last.seconds - first.seconds)
        }
        let window = speed(since: last.seconds - speedWindow)
        let recent = speed(since: last.seconds - speedWindow / 4)
        return abs(recent) > abs(window) ? recent : window
    }

    /// The rows to load now.
    ///
    /// - Parameter secondsPerRow: Seconds from asking for a row's images to having them: the
    ///   slowest of its images' ``LoadEstimate/secondsToImage(unmeasured:)``.
    public func plan(secondsPerRow: Double) -> Plan {
        let visible = visibleRows.clamped(to: 0..<rowCount)
        let screen = max(1, visible.count)
        let speed = abs(rowsPerSecond)
        let maximumAhead = Int((maximumScreensAhead * Double(screen)).rounded(.up))
        let needed = speed * max(0, secondsPerRow) * safetyFactor
        let isFling = needed > Double(maximumAhead)
        let minimumAhead = Int((minimumScreensAhead * Double(screen)).rounded(.up))
        let rowsAhead = isFling ? screen : min(maximumAhead, minimumAhead + Int(needed.rounded(.up)))
        // Rows that appear within one load's time are needed first.
        let urgent = isFling ? 0 : Int((speed * max(0, secondsPerRow)).rounded(.up)) + 1

        var rows = visible.map { Row(index: $0, priority: .normal) }
        for step in 1...max(1, rowsAhead) where rowsAhead > 0 {
            let index = direction > 0 ? visible.upperBound - 1 + step : visible.lowerBound - step
            guard (0..<rowCount).contains(index) else { break }
            rows.append(Row(index: index, priority: step <= urgent ? .normal : .low))
        }
        for step in 0..<max(0, rowsBehind) {
            let index = direction > 0 ? visible.lowerBound - 1 - step : visible.upperBound + step
            guard (0..<rowCount).contains(index) else { break }
            rows.append(Row(index: index, priority: .low))
        }
        let margin = max(rowsAhead, screen)
        let kept =
            direction > 0
            ? (visible.lowerBound - rowsBehind)..<(visible.upperBound + rowsAhead + margin)
            : (visible.lowerBound - rowsAhead - margin)..<(visible.upperBound + rowsBehind)
        return Plan(
            rows: rows, keptRows: kept.clamped(to: 0..<rowCount), rowsPerSecond: rowsPerSecond,
            rowsAhead: rowsAhead, isFling: isFling)
    }
}

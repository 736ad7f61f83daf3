import Dispatch
import ImageCodecs

/// Loads the images of a scrolling list ahead of its rows, as far ahead as the scroll's speed and
/// the store's measured load times call for, and cancels what falls out of range.
///
/// Tell it which rows are on screen, by range (``visibleRowsChanged(_:)``, from every frame or
/// `scrollViewDidScroll`) or row by row (``rowAppeared(_:)`` and ``rowDisappeared(_:)``, from
/// a cell's configuration or a SwiftUI row's `onAppear`). Each change asks the
/// ``PrefetchPlanner`` for a plan with the store's ``ImageStore/loadEstimate(for:)`` and
/// keeps one ``ImagePrefetch`` per planned row: its images stay alive, so the row shows them in
/// the frame it appears.
///
/// ```swift
/// let prefetcher = ScrollPrefetcher(store: images, rowCount: posts.count) { row in
///     [.url(posts[row].photoURL, maxPixelSize: 360)]
/// }
/// // each frame, or in scrollViewDidScroll:
/// prefetcher.visibleRowsChanged(firstVisibleRow..<lastVisibleRow + 1)
/// ```
///
/// Safe to use from any thread; on Apple platforms `PrefetchingDataSource` plugs it into
/// `UITableView` and `UICollectionView` prefetching.
public final class ScrollPrefetcher<Image: StorableImage>: Sendable {
    private struct Prefetch: Sendable {
        let handle: ImagePrefetch
        let priority: ImageLoadPriority
    }

    private struct State: Sendable {
        var planner: PrefetchPlanner
        var prefetches: [Int: Prefetch] = [:]
        /// Rows reported one by one, for ``rowAppeared(_:)``.
        var appearedRows: Set<Int> = []
        var plan: PrefetchPlanner.Plan?
    }

    /// The store the images load from.
    public let store: ImageStore<Image>
    private let requests: @Sendable (Int) -> [ImageRequest]
    private let state: Lock<State>

    /// Creates a prefetcher for a list of `rowCount` rows.
    ///
    /// - Parameters:
    ///   - store: The store to load from.
    ///   - rowCount: The rows in the list.
    ///   - planner: How far ahead to look; defaults to ``PrefetchPlanner``'s defaults.
    ///   - requests: The images row `index` shows, with the sizes its cells ask for (the same
    ///     requests, or the prefetched images are not the ones the cells get). Called under the
    ///     prefetcher's lock: it must not call the prefetcher.
    public init(
        store: ImageStore<Image>, rowCount: Int, planner: PrefetchPlanner? = nil,
        requests: @escaping @Sendable (_ index: Int) -> [ImageRequest]
    ) {
        self.store = store
        self.requests = requests
        var planner = planner ?? PrefetchPlanner(rowCount: rowCount)
        planner.rowCount = max(0, rowCount)
        state = Lock(State(planner: planner))
    }

    deinit {
        cancelAll()
    }

    /// The rows in the list. Setting it (the data changed) keeps the loads of rows that still exist.
    public var rowCount: Int {
        get { state.withLock { $0.planner.rowCount } }
        set { state.withLock { $0.planner.rowCount = max(0, newValue) } }
    }

    /// The last plan followed, nil before the first change.
    public var plan: PrefetchPlanner.Plan? {
        state.withLock { $0.plan }
    }

    /// The rows being prefetched (loading, or loaded and held), in no particular order.
    public var prefetchedRows: [Int] {
        state.withLock { Array($0.prefetches.keys) }
    }

    /// The images the prefetches hold now.
    public var heldImages: [Image] {
        state.withLock { $0.prefetches.values.flatMap { $0.handle.images.values.compactMap { $0 as? Image } } }
    }

    /// The rows on screen changed (or the same rows, a frame later): plans and loads, timed by
    /// the system's monotonic clock.
    public func visibleRowsChanged(_ rows: Range<Int>) {
        visibleRowsChanged(rows, at: Self.now)
    }

    /// The rows on screen at `seconds`, on a clock of your own that only goes forward.
    public func visibleRowsChanged(_ rows: Range<Int>, at seconds: Double) {
        state.withLock { state in
            state.planner.visibleRowsChanged(rows, at: seconds)
            follow(&state)
        }
    }

    /// A row came on screen: the visible rows become the span of the rows that appeared and
    /// have not disappeared.
    public func rowAppeared(_ index: Int) {
        let now = Self.now
        state.withLock { state in
            state.appearedRows.insert(index)
            state.planner.visibleRowsChanged(Self.span(of: state.appearedRows), at: now)
            follow(&state)
        }
    }

    /// A row left the screen.
    public func rowDisappeared(_ index: Int) {
        let now = Self.now
        state.withLock { state in
            // The last row leaving says nothing about where the list is: the plan stays.
            guard state.appearedRows.remove(index) != nil, !state.appearedRows.isEmpty else { return }
            state.planner.visibleRowsChanged(Self.span(of: state.appearedRows), at: now)
            follow(&state)
        }
    }

    /// Cancels every prefetch: the list went away. Later changes start again.
    public func cancelAll() {
        let handles = state.withLock { state in
            defer { state.prefetches = [:] }
            return state.prefetches.values.map(\.handle)
        }
        for handle in handles { handle.cancel() }
    }

    /// Starts the planned rows' prefetches (again at a higher priority if the plan raised it),
    /// then cancels those outside the kept rows: a load that a new prefetch joined goes on.
    private func follow(_ state: inout State) {
        let plan = state.planner.plan(secondsPerRow: secondsPerRow(state.planner.visibleRows))
        state.plan = plan
        var replaced: [ImagePrefetch] = []
        for row in plan.rows {
            if let current = state.prefetches[row.index], current.priority >= row.priority { continue }
            if let old = state.prefetches[row.index] { replaced.append(old.handle) }
            state.prefetches[row.index] = Prefetch(
                handle: store.prefetch(requests(row.index), priority: row.priority), priority: row.priority)
        }
        for old in replaced { old.cancel() }
        for index in Array(state.prefetches.keys) where !plan.keptRows.contains(index) {
            state.prefetches.removeValue(forKey: index)?.handle.cancel()
        }
    }

    /// The slowest estimate among the first visible row's images (every row is assumed alike).
    private func secondsPerRow(_ visible: Range<Int>) -> Double {
        guard let row = visible.first else { return LoadEstimate().secondsToImage() }
        return requests(row).map { store.loadEstimate(for: $0).secondsToImage() }.max() ?? 0
    }

    private static func span(of rows: Set<Int>) -> Range<Int> {
        guard let first = rows.min(), let last = rows.max() else { return 0..<0 }
        return first..<(last + 1)
    }

    private static var now: Double {
        Double(DispatchTime.now().uptimeNanoseconds) / 1e9
    }
}

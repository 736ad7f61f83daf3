/// A strategy of a section that scrolls at a person's paces and the fast ones, as its charts name
/// and colour it.
protocol PacedStrategy: CaseIterable, Hashable {
    var label: String { get }
    /// Its colour in the section's charts.
    var chartColor: String { get }
}

/// One run of such a section: a strategy at a speed, the rows its scroll brought on screen, and
/// how soon they had their photo.
protocol PacedRun {
    associatedtype Strategy: PacedStrategy
    var strategy: Strategy { get }
    var speed: ScrollSpeed { get }
    /// Rows the scroll brought on screen (the first screen is not counted), and those of them
    /// without their photo in the frame they appeared.
    var rowsScrolledIn: Int { get }
    var rowsScrolledInWithoutPhoto: Int { get }
    /// From row shown to photo set, every photo set while its row was on screen.
    var timeToPhoto: Distribution { get }
}

extension PacedRun {
    /// Of the rows the scroll brought on screen, the share that had their photo in the frame
    /// they appeared.
    var shareWithPhotoOnAppearing: Double {
        rowsScrolledIn == 0 ? 1 : Double(rowsScrolledIn - rowsScrolledInWithoutPhoto) / Double(rowsScrolledIn)
    }

    /// The pace tables' first columns: speed, strategy, rows in, rows without their photo on
    /// appearing, the share with it, and the row → photo p50 and p99 in milliseconds.
    var paceCells: [String] {
        [
            speed.label, strategy.label, String(rowsScrolledIn), String(rowsScrolledInWithoutPhoto),
            Format.fixed(100 * shareWithPhotoOnAppearing, digits: 1) + " %",
            Format.fixed(timeToPhoto.median / 1e6, digits: 1),
            Format.fixed(timeToPhoto.percentile(99) / 1e6, digits: 1),
        ]
    }
}

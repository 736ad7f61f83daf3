/// How fast the scrolling workload moves: rows per frame at 60 frames per second.
enum ScrollSpeed: CaseIterable {
    /// One row a frame: a steady drag.
    case slow
    /// Five rows a frame: a fling, where most rows are on screen for a frame or two.
    case fling

    var rowsPerFrame: Int {
        switch self {
        case .slow: 1
        case .fling: 5
        }
    }

    var label: String {
        switch self {
        case .slow: "slow"
        case .fling: "fling"
        }
    }
}

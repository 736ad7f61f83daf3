/// How fast a scrolling workload moves, from a person reading to a fling, at 60 frames per second.
enum ScrollSpeed: CaseIterable {
    /// About 2 rows a second: a flick of 2 rows, then a pause to read them.
    case reading
    /// 10 rows a second, steadily: looking for something.
    case browsing
    /// One row a frame (60 a second): a steady drag, faster than anyone reads.
    case slow
    /// Five rows a frame: a fling, where most rows are on screen for a frame or two.
    case fling

    /// The two fast speeds, which the scrolling section and the network feed's full script use.
    static let fast: [ScrollSpeed] = [.slow, .fling]

    /// Whether this is a pace a person looks at the rows in (reading, browsing).
    var isPersonPace: Bool { !Self.fast.contains(self) }

    /// Rows the list has moved `frame` frames after the scroll began: frame 0 already moved, as a
    /// drag moves the list in the frame it starts.
    func rowsMoved(atFrame frame: Int) -> Int {
        switch self {
        case .reading:
            // A flick of 2 rows over 6 frames, then 54 frames of reading.
            let flick = frame % 60
            return 2 * (frame / 60) + (flick >= 3 ? 1 : 0) + (flick >= 6 ? 1 : 0)
        case .browsing: return frame / 6 + 1
        case .slow: return frame + 1
        case .fling: return 5 * (frame + 1)
        }
    }

    /// The pace in words, for titles: "5 rows a frame".
    var pace: String {
        switch self {
        case .reading: "2 rows a second, pausing"
        case .browsing: "10 rows a second"
        case .slow: "1 row a frame"
        case .fling: "5 rows a frame"
        }
    }

    var label: String {
        switch self {
        case .reading: "reading"
        case .browsing: "browsing"
        case .slow: "slow"
        case .fling: "fling"
        }
    }
}

/// How far a section scrolls at each ``ScrollSpeed``: part of the list at a person's paces (a
/// reader would take minutes over all of it), to the end at the fast speeds.
struct ScrollDistance {
    /// Rows scrolled past at reading and at browsing speed.
    let readingRows: Int
    let browsingRows: Int

    /// Rows scrolled at `speed` in a list of `rowCount` rows.
    func rows(at speed: ScrollSpeed, of rowCount: Int) -> Int {
        switch speed {
        case .reading: readingRows
        case .browsing: browsingRows
        case .slow, .fling: rowCount
        }
    }
}

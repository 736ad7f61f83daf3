import ImageStoreTestSupport

extension Workload {
    private static let visibleRowCount = 10
    private static let roundTrips = 2

    /// A social feed: every row has an avatar (from 40 shared ones), 2-3 small icons (from a set
    /// of 12) and its own large photo. 10 rows are visible; the user scrolls one row per step to
    /// the end and back up, twice, and a memory warning arrives half-way.
    ///
    /// A scrolled-out row releases its images before the new row is configured, as cell reuse
    /// does.
    static func feedScroll(_ layout: CorpusLayout) -> Workload {
        var random = SeededGenerator(seed: 0xFEED)
        let rowCount = layout.feedRowCount
        let visible = min(visibleRowCount, rowCount)
        let rows: [[String]] = (0..<rowCount).map { row in
            let icons = (0..<CorpusLayout.feedIconCount).shuffled(using: &random).prefix(random.int(in: 2...3))
            return [CorpusLayout.avatar(random.int(in: 0...CorpusLayout.avatarCount - 1))]
                + icons.map(CorpusLayout.feedIcon) + [CorpusLayout.photo(row)]
        }

        var steps = [Step(actions: (0..<visible).map { .show(view: $0, images: rows[$0]) })]
        for _ in 0..<roundTrips {
            for top in stride(from: 1, through: rowCount - visible, by: 1) {
                let entering = top + visible - 1
                steps.append(Step(actions: [.hide(view: top - 1), .show(view: entering, images: rows[entering])]))
            }
            for top in stride(from: rowCount - visible - 1, through: 0, by: -1) {
                steps.append(Step(actions: [.hide(view: top + visible), .show(view: top, images: rows[top])]))
            }
        }
        steps.insert(Step(actions: [.memoryWarning]), at: steps.count / 2)
        return Workload(
            slug: "feed-scroll", title: "Feed scroll",
            description: "\(rowCount) rows (avatar from \(CorpusLayout.avatarCount), 2-3 icons from "
                + "\(CorpusLayout.feedIconCount), own photo), \(visible) visible, down and up \(roundTrips)×, "
                + "memory warning half-way",
            steps: steps)
    }
}

extension Workload {
    /// A full-screen pager over large images, the current page and its two neighbours alive
    /// (3 screens), swiped forward to the last page and back to the first.
    ///
    /// The neighbour coming into range is created before the one leaving is released, as a page
    /// view controller does, so 4 pages are alive for a moment at every swipe.
    static func pager(_ layout: CorpusLayout) -> Workload {
        let pageCount = layout.pageCount
        func show(_ page: Int) -> [Action] {
            (0..<pageCount).contains(page) ? [.show(view: page, images: [CorpusLayout.page(page)])] : []
        }
        func hide(_ page: Int) -> [Action] {
            (0..<pageCount).contains(page) ? [.hide(view: page)] : []
        }

        var steps = [Step(actions: show(0) + show(1))]
        for current in stride(from: 1, to: pageCount, by: 1) {
            steps.append(Step(actions: show(current + 1) + hide(current - 2)))
        }
        for current in stride(from: pageCount - 2, through: 0, by: -1) {
            steps.append(Step(actions: show(current - 1) + hide(current + 2)))
        }
        return Workload(
            slug: "pager", title: "Pager",
            description: "\(pageCount) large images, current page ± 1 alive, swiped to the end and back",
            steps: steps)
    }
}

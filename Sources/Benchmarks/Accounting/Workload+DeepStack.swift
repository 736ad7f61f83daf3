import ImageStoreTestSupport

extension Workload {
    private static let iconsPerDeepScreen = 30

    /// Every screen pushed onto one navigation stack, each holding its header and 30 icons, then
    /// all popped, then half pushed again: the images in use grow steadily, then shrink.
    ///
    /// The workload for a live-byte budget: as views hold more, a budgeted store's LRU must give
    /// way, and once they let go, fill again.
    static func deepStack(_ layout: CorpusLayout) -> Workload {
        var random = SeededGenerator(seed: 0xDEE9)
        let screens: [[String]] = (0..<layout.screenCount).map { screen in
            let icons = (0..<CorpusLayout.screenIconCount).shuffled(using: &random).prefix(iconsPerDeepScreen)
            return [CorpusLayout.header(screen)] + icons.map(CorpusLayout.screenIcon)
        }
        var steps: [Step] = []
        for (view, images) in screens.enumerated() {
            steps.append(Step(actions: [.show(view: view, images: images)]))
        }
        for view in screens.indices.reversed() {
            steps.append(Step(actions: [.hide(view: view)]))
        }
        for (index, images) in screens.prefix(screens.count / 2).enumerated() {
            steps.append(Step(actions: [.show(view: screens.count + index, images: images)]))
        }
        return Workload(
            slug: "deep-stack", title: "Deep stack",
            description: "\(screens.count) screens of \(iconsPerDeepScreen) icons + a header pushed one on another, "
                + "all popped, half pushed again",
            steps: steps)
    }
}

import ImageStoreTestSupport

extension Workload {
    private static let iconsPerScreen = 30
    private static let maximumStackDepth = 5
    private static let eventsBetweenMemoryWarnings = 20

    /// A navigation stack over screens of 30 icons each (drawn from a pool of 150) and a header
    /// image: pushes and pops in a seeded random order, every screen visited.
    ///
    /// As in UIKit, a screen pushed over keeps its view, so its images stay held until it is
    /// popped. Memory warnings arrive every 20 events, delayed until some screen is hidden under
    /// another; hidden screens keep their views (iOS has not unloaded them since iOS 6).
    static func screens(_ layout: CorpusLayout, navigationEventCount: Int) -> Workload {
        var random = SeededGenerator(seed: 0x5C4EE5)
        let screenCount = layout.screenCount
        let screens: [[String]] = (0..<screenCount).map { screen in
            let icons = (0..<CorpusLayout.screenIconCount).shuffled(using: &random).prefix(iconsPerScreen)
            return [CorpusLayout.header(screen)] + icons.map(CorpusLayout.screenIcon)
        }

        // Views are numbered per push: a screen pushed again later is a new view.
        var stack: [(screen: Int, view: Int)] = [(0, 0)]
        var nextView = 1
        var unvisited = Array(1..<screenCount)
        var steps = [Step(actions: [.show(view: 0, images: screens[0])])]
        var warningDue = false
        for event in 1...navigationEventCount {
            let mustPush = stack.count == 1 && screenCount > 1
            let mayPush = stack.count < maximumStackDepth && screenCount > stack.count
            if mustPush || (mayPush && random.double(in: 0...1) < 0.55) {
                let candidates =
                    unvisited.isEmpty
                    ? (1..<screenCount).filter { screen in !stack.contains { $0.screen == screen } }
                    : unvisited
                let screen = candidates[random.int(in: 0...candidates.count - 1)]
                unvisited.removeAll { $0 == screen }
                stack.append((screen, nextView))
                steps.append(Step(actions: [.show(view: nextView, images: screens[screen])]))
                nextView += 1
            } else if stack.count > 1 {
                steps.append(Step(actions: [.hide(view: stack.removeLast().view)]))
            }
            warningDue = warningDue || event.isMultiple(of: eventsBetweenMemoryWarnings)
            if warningDue && stack.count >= 2 {
                steps.append(Step(actions: [.memoryWarning]))
                warningDue = false
            }
        }
        return Workload(
            slug: "screens", title: "Screens",
            description: "\(screenCount) screens of \(iconsPerScreen) icons (pool of \(CorpusLayout.screenIconCount)) "
                + "+ a header each, \(navigationEventCount) pushes/pops, stack depth ≤ \(maximumStackDepth), "
                + "memory warnings while screens are hidden",
            steps: steps)
    }
}

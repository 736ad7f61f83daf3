extension Workload {
    private static let placesPerScreen = 7
    private static let screenVisits = 3

    /// One icon shown in 7 places at once (a like button in every cell of a screen), the screen
    /// closed and opened again, 3 times.
    ///
    /// A strategy that does not share pays 7 decoded copies; one that shares pays one. Whether
    /// the icon survives the screen closing shows who keeps small images between uses.
    static func sharedIcon() -> Workload {
        var steps: [Step] = []
        for visit in 0..<screenVisits {
            let views = (0..<placesPerScreen).map { visit * placesPerScreen + $0 }
            for view in views {
                steps.append(Step(actions: [.show(view: view, images: [CorpusLayout.sharedIcon])]))
            }
            steps.append(Step(actions: views.map { .hide(view: $0) }))
        }
        return Workload(
            slug: "shared-icon", title: "Shared icon",
            description: "one icon in \(placesPerScreen) places at once; the screen is closed and reopened, "
                + "\(screenVisits) visits",
            steps: steps)
    }
}

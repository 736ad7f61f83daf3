/// One goal of the default policy, checked against this run's numbers.
struct GoalCheck {
    let passed: Bool
    /// The goal and the measured values it was judged on.
    let statement: String
    /// Whether the verdict needs the full run's sizes: image sizes, grid sizes and decode times
    /// that `--quick` shrinks until the ratio says nothing (a 1200 × 800 PNG is not
    /// inflate-bound like a 6000 × 4000 one; a 30-photo grid is mostly on screen).
    var needsFullRunSizes = false

    /// The line to print; in a `--quick` run, goals that need the full run's sizes are shown with
    /// their figures but not judged.
    func line(quick: Bool) -> String {
        if quick && needsFullRunSizes { return "----  \(statement) (not judged at --quick sizes)" }
        return "\(passed ? "PASS" : "FAIL")  \(statement)"
    }

    /// Whether this goal counts toward the passed/failed tally of the run.
    func isJudged(quick: Bool) -> Bool { !(quick && needsFullRunSizes) }
}

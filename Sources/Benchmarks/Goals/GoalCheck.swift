/// One goal of the default policy, checked against this run's numbers.
struct GoalCheck {
    let passed: Bool
    /// The goal and the measured values it was judged on.
    let statement: String
    /// Whether the verdict needs the full run's sizes: image sizes, grid sizes and decode times
    /// that `--quick` shrinks until the ratio says nothing (a 1200 × 800 PNG is not
    /// inflate-bound like a 6000 × 4000 one; a 30-photo grid is mostly on screen).
    var needsFullRunSizes = false
    /// Whether the goal is a time or a speed ratio: `--quick`'s few small samples on a shared
    /// machine give noise, so it is judged in full runs only. Counts and bytes are judged always.
    var isTiming = false

    /// The line to print; in a `--quick` run, timing goals and goals that need the full run's
    /// sizes are shown with their figures but not judged.
    func line(quick: Bool) -> String {
        if !isJudged(quick: quick) { return "----  \(statement) (not judged at --quick sizes)" }
        return "\(passed ? "PASS" : "FAIL")  \(statement)"
    }

    /// Whether this goal counts toward the passed/failed tally of the run.
    func isJudged(quick: Bool) -> Bool { !(quick && (needsFullRunSizes || isTiming)) }
}

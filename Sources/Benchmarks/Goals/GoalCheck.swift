/// One goal of the default policy, checked against this run's numbers.
struct GoalCheck {
    let passed: Bool
    /// The goal and the measured values it was judged on.
    let statement: String

    var line: String { "\(passed ? "PASS" : "FAIL")  \(statement)" }
}

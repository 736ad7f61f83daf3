/// What a section of the benchmark adds to the run's summary: goal lines and measurement
/// warnings.
struct SectionOutcome {
    let goals: [GoalCheck]
    let warnings: [String]
}

/// The goals of the disk cache (issue 21), judged on this run.
enum DiskCacheGoals {
    static let openLimitMilliseconds = 50.0
    static let openLimitEntries = 100_000
    static let missLimitNanoseconds = 1_000.0

    static func evaluate(_ rows: [DiskCacheBenchmark.Row], largestSize: Int) -> [GoalCheck] {
        let ours = rows.filter { $0.candidate == OurDiskImageCache.name }
        let filePerKey = rows.filter { $0.candidate == FilePerKeyCache.name }
        var checks: [GoalCheck] = []
        if let largest = ours.last {
            let scan = filePerKey.first { $0.entries == largest.entries }
            let scanText = scan.map {
                "; the file-per-key scan \(Format.fixed($0.openMilliseconds.median, digits: 1)) ms"
            }
            checks.append(
                GoalCheck(
                    passed: largest.entries >= openLimitEntries
                        && largest.openMilliseconds.median <= openLimitMilliseconds,
                    statement: "disk cache opens at \(openLimitEntries) entries in ≤ \(Int(openLimitMilliseconds)) ms: "
                        + "\(Format.fixed(largest.openMilliseconds.median, digits: 1)) ms at \(largest.entries) entries"
                        + (scanText ?? ""),
                    needsFullRunSizes: largestSize < openLimitEntries, isTiming: true))
        }
        for row in ours {
            checks.append(
                GoalCheck(
                    passed: row.missNanoseconds <= missLimitNanoseconds,
                    statement: "disk cache miss ≤ 1 µs at \(row.entries) entries: "
                        + "\(Format.microseconds(row.missNanoseconds)) µs", isTiming: true))
            if let baseline = filePerKey.first(where: { $0.entries == row.entries }) {
                checks.append(
                    GoalCheck(
                        passed: row.hitNanoseconds <= baseline.hitNanoseconds,
                        statement: "disk cache hit ≤ the file-per-key read at \(row.entries) entries: "
                            + "\(Format.microseconds(row.hitNanoseconds)) vs "
                            + "\(Format.microseconds(baseline.hitNanoseconds)) µs "
                            + "(\(Format.ratio(row.hitNanoseconds / baseline.hitNanoseconds)))", isTiming: true))
            }
        }
        let wrong = ours.map(\.wrongHits).reduce(0, +)
        checks.append(
            GoalCheck(
                passed: wrong == 0 && !ours.isEmpty,
                statement: "disk cache: every hit returns the bytes written: \(wrong) wrong of "
                    + "\(ours.map(\.hits).reduce(0, +)) hits"))
        return checks
    }
}

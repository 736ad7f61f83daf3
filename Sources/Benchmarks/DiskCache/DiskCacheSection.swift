import Foundation

/// The benchmark's "disk cache" section: the library's cache against a file-per-key folder and
/// Foundation's `URLCache`, filled with the same entries and measured at the same sizes.
struct DiskCacheSection {
    let quick: Bool

    /// Runs the section in a scratch folder it deletes afterwards.
    func run() -> SectionOutcome {
        let sizes = quick ? [100, 1_000] : [100, 1_000, 10_000, 100_000]
        let scratch = FileManager.default.temporaryDirectory.appendingPathComponent(
            "disk-cache-benchmark-\(UUID().uuidString)")
        defer { try? FileManager.default.removeItem(at: scratch) }
        let started = MonotonicClock.now()
        let (rows, notes) = DiskCacheBenchmark.run(sizes: sizes, fillSeconds: quick ? 3 : 60, scratch: scratch)
        print(table(rows))
        for note in notes { print("  \(note)") }
        print(
            "  (\(DiskCacheBenchmark.bodyBytes)-byte bodies; open: median of up to 5 (within 5 s), warm page cache; "
                + "miss: up to \(DiskCacheBenchmark.lookupCount) absent keys, hit: up to "
                + "\(DiskCacheBenchmark.lookupCount) random entries read and compared, each within "
                + "\(Int(DiskCacheBenchmark.lookupSeconds)) s; keys made from the URLs beforehand)")
        print("disk cache section: \(Format.fixed(Double(MonotonicClock.now() - started) / 1e9, digits: 1)) s\n")
        return SectionOutcome(goals: DiskCacheGoals.evaluate(rows, largestSize: sizes.last ?? 0), warnings: [])
    }

    private func table(_ rows: [DiskCacheBenchmark.Row]) -> String {
        var table = TextTable(headers: [
            "candidate", "entries", "writes/s", "open ms", "miss µs", "hit µs", "wrong hits",
        ])
        for row in rows {
            table.append([
                row.candidate, String(row.entries), String(Int(row.writesPerSecond)),
                Format.fixed(row.openMilliseconds.median, digits: 2), Format.microseconds(row.missNanoseconds),
                Format.microseconds(row.hitNanoseconds), String(row.wrongHits),
            ])
        }
        return table.rendered()
    }
}

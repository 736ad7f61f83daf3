import Foundation
import ImageStoreTestSupport

/// The disk-cache lines: the same entries written into each candidate, then, at 1k, 10k and 100k
/// entries, the time to open the cache, a miss and a hit, side by side in one run.
enum DiskCacheBenchmark {
    /// Large enough that no candidate evicts while the benchmark fills it.
    static let sizeLimit = 2 << 30
    /// Each entry's body: a small thumbnail's worth.
    static let bodyBytes = 2048
    /// A candidate whose next fill would take longer than this is not measured at that size.
    private static let fillBudgetSeconds = 60.0

    /// One candidate at one number of entries.
    struct Row {
        let candidate: String
        let entries: Int
        /// Entries written per second while filling up to `entries`.
        let writesPerSecond: Double
        /// Milliseconds to open the filled cache, median of a few opens (warm page cache).
        let openMilliseconds: Distribution
        /// Nanoseconds per lookup of a key that is not there.
        let missNanoseconds: Double
        /// Nanoseconds per read of an entry's bytes.
        let hitNanoseconds: Double
        /// Hits whose bytes differed from what was written, or that came back empty.
        let wrongHits: Int
    }

    /// Fills and measures every candidate in a fresh folder under `scratch`.
    ///
    /// - Parameter sizes: The entry counts measured, ascending.
    static func run(sizes: [Int], scratch: URL) -> (rows: [Row], notes: [String]) {
        var rows: [Row] = []
        var notes: [String] = []
        let candidates: [any DiskCacheCandidate.Type] = [
            OurDiskImageCache.self, FilePerKeyCache.self, FoundationURLCache.self,
        ]
        for candidate in candidates {
            let directory = scratch.appendingPathComponent(UUID().uuidString)
            defer { try? FileManager.default.removeItem(at: directory) }
            let (candidateRows, note) = measure(candidate, sizes: sizes, in: directory)
            rows += candidateRows
            if let note { notes.append(note) }
        }
        return (rows, notes)
    }

    private static func measure(
        _ candidate: any DiskCacheCandidate.Type, sizes: [Int], in directory: URL
    ) -> ([Row], String?) {
        var rows: [Row] = []
        var filled = 0
        var writesPerSecond = 0.0
        for size in sizes {
            if filled > 0, Double(size - filled) / writesPerSecond > fillBudgetSeconds {
                let note =
                    "\(candidate.name): not measured at \(size) entries (filling would take "
                    + "\(Int(Double(size - filled) / writesPerSecond)) s at \(Int(writesPerSecond)) writes/s)"
                return (rows, note)
            }
            guard let writer = try? candidate.init(directory: directory) else {
                return (rows, "\(candidate.name): could not open a cache in \(directory.path)")
            }
            let started = MonotonicClock.now()
            for index in filled..<size {
                writer.store(body(index), for: url(index))
            }
            writesPerSecond = Double(size - filled) / (Double(MonotonicClock.now() - started) / 1e9)
            filled = size
            rows.append(lookups(candidate, entries: size, in: directory, writesPerSecond: writesPerSecond))
        }
        return (rows, nil)
    }

    /// Opens the filled cache a few times, then times misses and hits on the last one opened.
    private static func lookups(
        _ candidate: any DiskCacheCandidate.Type, entries: Int, in directory: URL, writesPerSecond: Double
    ) -> Row {
        var openTimes: [Double] = []
        var opened: (any DiskCacheCandidate)?
        for _ in 0..<5 {
            opened = nil  // The previous instance goes first, as in a relaunch.
            let started = MonotonicClock.now()
            opened = try? candidate.init(directory: directory)
            openTimes.append(Double(MonotonicClock.now() - started) / 1e6)
        }
        guard let cache = opened else {
            return Row(
                candidate: candidate.name, entries: entries, writesPerSecond: writesPerSecond,
                openMilliseconds: Distribution(openTimes), missNanoseconds: .nan, hitNanoseconds: .nan,
                wrongHits: entries)
        }
        let missURLs = (0..<10_000).map { url(entries + 1_000_000 + $0) }
        let missStarted = MonotonicClock.now()
        for missURL in missURLs { blackHole(cache.contains(missURL)) }
        let missNanoseconds = Double(MonotonicClock.now() - missStarted) / Double(missURLs.count)

        var generator = SeededGenerator(seed: UInt64(entries))
        let hitIndices = (0..<2_000).map { _ in Int(generator.next() % UInt64(entries)) }
        let hitURLs = hitIndices.map(url)
        var hits: [Data?] = []
        hits.reserveCapacity(hitURLs.count)
        let hitStarted = MonotonicClock.now()
        for hitURL in hitURLs { hits.append(cache.data(for: hitURL)) }
        let hitNanoseconds = Double(MonotonicClock.now() - hitStarted) / Double(hitURLs.count)
        let wrongHits = zip(hitIndices, hits).filter { index, data in data != body(index) }.count
        return Row(
            candidate: candidate.name, entries: entries, writesPerSecond: writesPerSecond,
            openMilliseconds: Distribution(openTimes), missNanoseconds: missNanoseconds,
            hitNanoseconds: hitNanoseconds, wrongHits: wrongHits)
    }

    /// The URL of entry `index`: a feed's picture.
    static func url(_ index: Int) -> URL {
        URL(string: "https://images.example.com/feed/\(index)/photo.jpg?w=640")!  // Proven: a fixed, valid URL.
    }

    /// Entry `index`'s bytes: distinct per entry, so a mixed-up read is caught.
    static func body(_ index: Int) -> Data {
        var data = Data(count: bodyBytes)
        data.withUnsafeMutableBytes { buffer in
            var generator = SeededGenerator(seed: UInt64(index) &+ 0xD15C)
            for offset in stride(from: 0, to: buffer.count, by: 8) {
                withUnsafeBytes(of: generator.next()) { word in
                    for byte in 0..<min(8, buffer.count - offset) { buffer[offset + byte] = word[byte] }
                }
            }
        }
        return data
    }
}

import Foundation
import ImageStoreTestSupport

/// The disk-cache lines: the same entries written into each candidate, then, at each size, the
/// time to open the cache, a miss and a hit, side by side in one run.
enum DiskCacheBenchmark {
    /// Large enough that no candidate evicts while the benchmark fills it.
    static let sizeLimit = 2 << 30
    /// Each entry's body: a small thumbnail's worth.
    static let bodyBytes = 2048
    /// Lookups timed per figure, at most; a slow candidate stops after ``lookupSeconds``.
    static let lookupCount = 10_000
    static let lookupSeconds = 1.0

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
        /// Hits timed and compared.
        let hits: Int
    }

    /// Fills and measures every candidate in a fresh folder under `scratch`.
    ///
    /// - Parameters:
    ///   - sizes: The entry counts measured, ascending.
    ///   - fillSeconds: A candidate whose next fill would take longer is not measured at that
    ///     size (nor larger ones).
    static func run(sizes: [Int], fillSeconds: Double, scratch: URL) -> (rows: [Row], notes: [String]) {
        var rows: [Row] = []
        var notes: [String] = []
        func measure<Candidate: DiskCacheCandidate>(_ candidate: Candidate.Type) {
            let directory = scratch.appendingPathComponent(UUID().uuidString)
            defer { try? FileManager.default.removeItem(at: directory) }
            let (candidateRows, note) = fillAndMeasure(
                candidate, sizes: sizes, fillSeconds: fillSeconds, in: directory)
            rows += candidateRows
            if let note { notes.append(note) }
        }
        measure(OurDiskImageCache.self)
        measure(FilePerKeyCache.self)
        measure(FoundationURLCache.self)
        return (rows, notes)
    }

    private static func fillAndMeasure<Candidate: DiskCacheCandidate>(
        _ candidate: Candidate.Type, sizes: [Int], fillSeconds: Double, in directory: URL
    ) -> ([Row], String?) {
        var rows: [Row] = []
        var filled = 0
        for size in sizes {
            guard let writer = try? Candidate(directory: directory) else {
                return (rows, "\(Candidate.name): could not open a cache in \(directory.path)")
            }
            let started = MonotonicClock.now()
            for index in filled..<size {
                writer.store(body(index), for: writer.key(for: url(index)))
                let seconds = Double(MonotonicClock.now() - started) / 1e9
                // Projected from the writes so far, so a slow candidate stops early.
                if index % 50 == 49, seconds / Double(index - filled + 1) * Double(size - filled) > fillSeconds {
                    let rate = Double(index - filled + 1) / seconds
                    return (
                        rows,
                        "\(Candidate.name): not measured at \(size) entries (\(Int(rate)) writes/s: filling "
                            + "would take \(Int(Double(size - filled) / rate)) s)"
                    )
                }
            }
            let writesPerSecond = Double(size - filled) / (Double(MonotonicClock.now() - started) / 1e9)
            filled = size
            rows.append(lookups(candidate, entries: size, in: directory, writesPerSecond: writesPerSecond))
        }
        return (rows, nil)
    }

    /// Opens the filled cache a few times, then times misses and hits on the last one opened.
    private static func lookups<Candidate: DiskCacheCandidate>(
        _ candidate: Candidate.Type, entries: Int, in directory: URL, writesPerSecond: Double
    ) -> Row {
        var openTimes: [Double] = []
        var opened: Candidate?
        // Fewer opens where one takes seconds (the file-per-key scan of 100,000 files).
        while openTimes.count < 5, openTimes.reduce(0, +) < 5_000 {
            opened = nil  // The previous instance goes first, as in a relaunch.
            let started = MonotonicClock.now()
            opened = try? Candidate(directory: directory)
            openTimes.append(Double(MonotonicClock.now() - started) / 1e6)
        }
        guard let cache = opened else {
            return Row(
                candidate: Candidate.name, entries: entries, writesPerSecond: writesPerSecond,
                openMilliseconds: Distribution(openTimes), missNanoseconds: .nan, hitNanoseconds: .nan,
                wrongHits: 0, hits: 0)
        }
        let missKeys = (0..<lookupCount).map { cache.key(for: url(entries + 1_000_000 + $0)) }
        let missNanoseconds = timePerLookup(missKeys) { blackHole(cache.contains($0)) }.nanoseconds

        var generator = SeededGenerator(seed: UInt64(entries))
        let hitIndices = (0..<lookupCount).map { _ in Int(generator.next() % UInt64(entries)) }
        let hitKeys = hitIndices.map { cache.key(for: url($0)) }
        var hits = [Data?](repeating: nil, count: hitKeys.count)
        let (hitNanoseconds, hitCount) = timePerLookup(Array(hitKeys.enumerated())) { position, key in
            hits[position] = cache.data(for: key)
        }
        let wrongHits = (0..<hitCount).filter { hits[$0] != body(hitIndices[$0]) }.count
        return Row(
            candidate: Candidate.name, entries: entries, writesPerSecond: writesPerSecond,
            openMilliseconds: Distribution(openTimes), missNanoseconds: missNanoseconds,
            hitNanoseconds: hitNanoseconds, wrongHits: wrongHits, hits: hitCount)
    }

    /// Nanoseconds per call of `lookUp` over `keys`, stopping after ``lookupSeconds``, and how
    /// many of the first keys were timed.
    private static func timePerLookup<Key>(
        _ keys: [Key], _ lookUp: (Key) -> Void
    ) -> (nanoseconds: Double, count: Int) {
        // A warm-up over other keys first: caches, page tables and lazily made tables settle.
        for key in keys.suffix(100) { lookUp(key) }
        let started = MonotonicClock.now()
        let deadline = started + UInt64(lookupSeconds * 1e9)
        var done = 0
        for key in keys {
            lookUp(key)
            done += 1
            if done % 16 == 0, MonotonicClock.now() > deadline { break }
        }
        return (Double(MonotonicClock.now() - started) / Double(done), done)
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

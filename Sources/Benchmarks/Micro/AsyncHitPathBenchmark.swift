import Dispatch
import Foundation
import WeakImageStore

/// The hit path of the asynchronous API beside the synchronous one: `await fetchImage(named:priority:)`
/// against `loadImage(named:)` for an image the store holds (a strong hit on the default policy),
/// both called from the same task, samples interleaved; `cachedImage(named:)`, the UI thread's
/// first call, beside them.
enum AsyncHitPathBenchmark {
    /// Lookups timed together as one sample.
    private static let lookupsPerSample = 100_000

    struct Results: Sendable {
        /// Nanoseconds per `loadImage(named:)` hit.
        let syncNanoseconds: [Double]
        /// Nanoseconds per `await fetchImage(named:priority:)` hit.
        let asyncNanoseconds: [Double]
        /// Nanoseconds per `cachedImage(named:)` hit.
        let cachedNanoseconds: [Double]

        var sync: Distribution { Distribution(syncNanoseconds) }
        var async: Distribution { Distribution(asyncNanoseconds) }
        var cached: Distribution { Distribution(cachedNanoseconds) }
        /// The async median over the sync median.
        var ratio: Double { sync.median > 0 ? async.median / sync.median : .nan }
    }

    /// Runs both for `samples` interleaved rounds after one warm-up round, in a task while the
    /// calling thread waits.
    static func run(root: URL, samples: Int) -> Results {
        // A user's corpus may make the shared icon a JPEG file.
        var configuration = ImageStore<Bitmap>.Configuration(directories: [root], decoder: BitmapDecoder())
        configuration.policy = .default
        configuration.extensions = CorpusLayout.fileExtensions
        let store = ImageStore(configuration)
        let name = CorpusLayout.sharedIcon
        _ = store.cachedImage(named: name) ?? store.image(named: name)
        let results = LockedBox(Results(syncNanoseconds: [], asyncNanoseconds: [], cachedNanoseconds: []))
        let finished = DispatchSemaphore(value: 0)
        Task {
            var sync: [Double] = []
            var async: [Double] = []
            var cached: [Double] = []
            for round in 0...samples {
                var start = MonotonicClock.now()
                for _ in 0..<lookupsPerSample { blackHole(try? store.loadImage(named: name)) }
                let syncNanoseconds = Double(MonotonicClock.now() - start) / Double(lookupsPerSample)
                start = MonotonicClock.now()
                for _ in 0..<lookupsPerSample { blackHole(try? await store.fetchImage(named: name, priority: .normal)) }
                let asyncNanoseconds = Double(MonotonicClock.now() - start) / Double(lookupsPerSample)
                start = MonotonicClock.now()
                for _ in 0..<lookupsPerSample { blackHole(store.cachedImage(named: name)) }
                let cachedNanoseconds = Double(MonotonicClock.now() - start) / Double(lookupsPerSample)
                // Round 0 warms caches, branch predictors and the allocator; it is not kept.
                if round > 0 {
                    sync.append(syncNanoseconds)
                    async.append(asyncNanoseconds)
                    cached.append(cachedNanoseconds)
                }
            }
            results.value = Results(syncNanoseconds: sync, asyncNanoseconds: async, cachedNanoseconds: cached)
            finished.signal()
        }
        finished.wait()
        return results.value
    }

    /// The table: median ns per hit, the spread (min-max), and the ratio to the sync hit.
    static func table(_ results: Results) -> String {
        var table = TextTable(headers: ["hit path (default policy, strong hit)", "ns", "spread", "÷ sync"])
        for (label, distribution) in [
            ("loadImage(named:)", results.sync), ("await fetchImage(named:priority:)", results.async),
            ("cachedImage(named:)", results.cached),
        ] {
            table.append([
                label, Format.fixed(distribution.median, digits: 1),
                "\(Format.fixed(distribution.minimum, digits: 1))–\(Format.fixed(distribution.maximum, digits: 1))",
                Format.ratio(distribution.median / max(results.sync.median, 1e-9)),
            ])
        }
        return table.rendered()
    }
}

import Dispatch
import Foundation
import ImageStoreTestSupport
import WeakImageStore

/// Measures the hit path: `ImageStore` returning an image it has (a strong hit under the default
/// policy, a weak hit under `.weak` while the image is held) against a lock-guarded `Dictionary`
/// and an `NSCache`, on one thread and on two threads at once.
enum HitPathBenchmark {
    static let storeStrongHit = "ImageStore strong hit (weak + LRU)"
    static let storeWeakHit = "ImageStore weak hit (.weak, held)"
    static let dictionary = "Dictionary + NSLock"
    static let nsCache = "NSCache (NSString key made once)"
    static let storeURLHit = "ImageStore strong hit, .url request made each lookup"
    static let storeKeptURLHit = "ImageStore strong hit, .url request made once"
    static let urlDictionary = "Dictionary<URL, …> + NSLock"
    static let threadCounts = [1, 2]

    /// Lookups timed together as one sample.
    private static let lookupsPerSample = 100_000

    struct Results {
        /// Nanoseconds per lookup, as each thread sees it, per candidate and thread count.
        let nanosecondsPerLookup: [String: [Int: Distribution]]

        /// The median of `candidate` over the median of the `Dictionary` baseline.
        func ratioToDictionary(_ candidate: String, threads: Int) -> Double {
            ratio(candidate, to: dictionary, threads: threads)
        }

        /// The median of `candidate` over the median of `baseline`.
        func ratio(_ candidate: String, to baseline: String, threads: Int) -> Double {
            guard let value = nanosecondsPerLookup[candidate]?[threads]?.median,
                let base = nanosecondsPerLookup[baseline]?[threads]?.median, base > 0
            else { return .nan }
            return value / base
        }
    }

    private struct Candidate {
        let name: String
        let lookUp: @Sendable (_ count: Int) -> Void
    }

    /// Runs every candidate for `samples` interleaved rounds after one warm-up round.
    static func run(corpus: Corpus, samples: Int) -> Results {
        let name = CorpusLayout.sharedIcon
        // A user's corpus may make the shared icon a JPEG file.
        var lruStoreConfiguration = ImageStore<Bitmap>.Configuration(
            directories: [corpus.root], decoder: BitmapDecoder())
        lruStoreConfiguration.policy = .default
        lruStoreConfiguration.extensions = CorpusLayout.fileExtensions
        let lruStore = ImageStore(lruStoreConfiguration)
        var weakStoreConfiguration = ImageStore<Bitmap>.Configuration(
            directories: [corpus.root], decoder: BitmapDecoder())
        weakStoreConfiguration.policy = .weak
        weakStoreConfiguration.extensions = CorpusLayout.fileExtensions
        let weakStore = ImageStore(weakStoreConfiguration)
        // The LRU keeps its copy; the weak store's copy lives as long as this reference.
        _ = lruStore.image(named: name)
        guard let held = weakStore.image(named: name) else {
            return Results(nanosecondsPerLookup: [:])
        }
        let lockedDictionary = LockedDictionary([name: held])
        let cache = SharedNSCache(key: name, image: held)

        var candidates = [
            Candidate(name: storeStrongHit) { count in
                for _ in 0..<count { blackHole(lruStore.image(named: name)) }
            },
            Candidate(name: storeWeakHit) { count in
                for _ in 0..<count { blackHole(weakStore.image(named: name)) }
            },
            Candidate(name: dictionary) { count in
                for _ in 0..<count { blackHole(lockedDictionary.image(for: name)) }
            },
            Candidate(name: nsCache) { count in
                for _ in 0..<count { blackHole(cache.lookUp()) }
            },
        ]
        // The same icon served on loopback and loaded once by URL: a cell asks for its picture
        // with a request it makes each time, or with one its row model keeps (the URL's
        // canonical form and hash are then computed once).
        let server = try? LoopbackHTTPServer()
        defer { _ = server?.stop() }
        if let server, let iconURL = serve(name, from: corpus, on: server),
            let loaded = load(.url(iconURL), into: lruStore)
        {
            let urlDictionary = LockedDictionary([iconURL: loaded])
            let keptRequest = ImageRequest.url(iconURL)
            candidates += [
                Candidate(name: storeURLHit) { count in
                    for _ in 0..<count { blackHole(lruStore.image(for: .url(iconURL))) }
                },
                Candidate(name: storeKeptURLHit) { count in
                    for _ in 0..<count { blackHole(lruStore.image(for: keptRequest)) }
                },
                Candidate(name: Self.urlDictionary) { count in
                    for _ in 0..<count { blackHole(urlDictionary.image(for: iconURL)) }
                },
            ]
        }
        var samplesByCandidate: [String: [Int: [Double]]] = [:]
        for round in 0...samples {
            for candidate in candidates {
                for threads in threadCounts {
                    let nanoseconds = measure(candidate, threads: threads)
                    // Round 0 warms caches, branch predictors and the allocator; it is not kept.
                    if round > 0 {
                        samplesByCandidate[candidate.name, default: [:]][threads, default: []].append(nanoseconds)
                    }
                }
            }
        }
        return withExtendedLifetime(held) {
            Results(nanosecondsPerLookup: samplesByCandidate.mapValues { $0.mapValues(Distribution.init) })
        }
    }

    /// Serves the file of image `name` at `/name` and returns its URL.
    private static func serve(_ name: String, from corpus: Corpus, on server: LoopbackHTTPServer) -> URL? {
        for scale in ["@2x", "", "@3x"] {
            for fileExtension in CorpusLayout.fileExtensions {
                let file = corpus.root.appendingPathComponent(name + scale + "." + fileExtension)
                guard let bytes = try? Data(contentsOf: file) else { continue }
                server.respond(to: "/" + name, with: .ok(Array(bytes), contentType: "image/" + fileExtension))
                return server.url("/" + name)
            }
        }
        return nil
    }

    /// Loads `request` into `store` through its async API and waits for it.
    private static func load(_ request: ImageRequest, into store: ImageStore<Bitmap>) -> Bitmap? {
        let done = DispatchSemaphore(value: 0)
        let result = LoadResult()
        Task {
            result.image = try? await store.fetchImage(for: request)
            done.signal()
        }
        done.wait()
        return result.image
    }

    /// What ``load(_:into:)``'s task hands back; read only after the semaphore says it is set.
    private final class LoadResult: @unchecked Sendable {
        var image: Bitmap?
    }

    /// Nanoseconds per lookup for `threads` threads each doing `lookupsPerSample` lookups at once.
    private static func measure(_ candidate: Candidate, threads: Int) -> Double {
        let start = MonotonicClock.now()
        if threads == 1 {
            candidate.lookUp(lookupsPerSample)
        } else {
            DispatchQueue.concurrentPerform(iterations: threads) { _ in candidate.lookUp(lookupsPerSample) }
        }
        return Double(MonotonicClock.now() - start) / Double(lookupsPerSample)
    }

    /// The table: median ns per lookup, the spread (min-max), and the ratio to the Dictionary.
    static func table(_ results: Results) -> String {
        var table = TextTable(headers: [
            "hit path", "1 thread ns", "spread", "÷ Dictionary", "2 threads ns", "spread",
            "÷ Dictionary",
        ])
        let urlRows = [storeURLHit, storeKeptURLHit, urlDictionary]
        for candidate in [storeStrongHit, storeWeakHit, dictionary, nsCache] + urlRows {
            // The URL rows are compared with the URL-keyed dictionary.
            let baseline = urlRows.contains(candidate) ? urlDictionary : dictionary
            var row = [candidate]
            for threads in threadCounts {
                guard let distribution = results.nanosecondsPerLookup[candidate]?[threads] else {
                    row += ["n/a", "", ""]
                    continue
                }
                row += [
                    Format.fixed(distribution.median, digits: 1),
                    "\(Format.fixed(distribution.minimum, digits: 1))–\(Format.fixed(distribution.maximum, digits: 1))",
                    Format.ratio(results.ratio(candidate, to: baseline, threads: threads)),
                ]
            }
            table.append(row)
        }
        return table.rendered()
    }
}

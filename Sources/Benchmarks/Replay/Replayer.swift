import WeakImageStore

/// Replays a ``Workload`` against one strategy and measures what it costs.
///
/// Each run starts from nothing (a fresh strategy, no live bitmaps, the peak reset) and ends by
/// releasing the views and the strategy, after which no bitmap may be left alive.
struct Replayer {
    /// The file each layout name resolves to, so duplicates are counted per file.
    private let files: [String: String]
    private let admissionCostLimit: Int
    private let corpus: Corpus

    init(corpus: Corpus, admissionCostLimit: Int) {
        var loader = PeerImageLoader(root: corpus.root)
        var files: [String: String] = [:]
        for entry in corpus.layout.entries {
            files[entry.name] = loader.resolve(entry.name)?.path
        }
        self.files = files
        self.admissionCostLimit = admissionCostLimit
        self.corpus = corpus
    }

    /// Replays `workload` against a fresh instance of `kind`.
    func run(_ workload: Workload, _ kind: StrategyKind) -> RunResult {
        ResidentMemory.releaseFreeMemory()
        // Bitmaps a previous run leaked (reported there) are not this run's.
        let baseline = Bitmap.memory
        BitmapMemory.resetPeak()
        let measurements = replay(workload, on: kind.make(corpus.root), baselineBytes: baseline.liveBytes)
        // The views and the strategy are gone now; so must be every bitmap they made.
        ResidentMemory.releaseFreeMemory()
        return measurements.result(
            strategy: kind.label,
            liveCountAfterRelease: Bitmap.memory.liveCount - baseline.liveCount)
    }

    /// What a replay measured, before the strategy is released.
    private struct Measurements {
        var liveBytes: [Int] = []
        var inUseBytes: [Int] = []
        var peakLiveBytes = 0
        var peakInUseBytes = 0
        var residentBytesAtPeak: Int?
        var counters = StrategyCounters()
        var tracker = InstanceTracker()
        var smallImageDecodes = RedecodeAudit()
        var lookupNanoseconds: [UInt64] = []
        var failedLookups = 0
        var wallNanoseconds: UInt64 = 0

        func result(strategy: String, liveCountAfterRelease: Int) -> RunResult {
            RunResult(
                strategy: strategy, liveBytes: liveBytes, inUseBytes: inUseBytes,
                peakLiveBytes: peakLiveBytes, peakInUseBytes: peakInUseBytes,
                meanLiveBytes: Double(liveBytes.reduce(0, +)) / Double(max(liveBytes.count, 1)),
                residentBytesAtPeak: residentBytesAtPeak, decodes: tracker.decodeCount,
                distinctImages: tracker.distinctFiles, counters: counters,
                maximumDuplicates: tracker.maximumDuplicates, smallImageDecodes: smallImageDecodes,
                lookups: lookupNanoseconds.count, failedLookups: failedLookups,
                lookupNanoseconds: Distribution(lookupNanoseconds), wallSeconds: Double(wallNanoseconds) / 1e9,
                liveCountAfterRelease: liveCountAfterRelease)
        }
    }

    private func replay(_ workload: Workload, on strategy: any ImageStrategy, baselineBytes: Int) -> Measurements {
        var measurements = Measurements()
        measurements.lookupNanoseconds.reserveCapacity(workload.lookupCount)
        var screen = OnScreenImages()
        var warnings = 0
        var evictions = 0
        var mostLiveBytes = -1
        let start = MonotonicClock.now()
        for step in workload.steps {
            for action in step.actions {
                switch action {
                case .show(let view, let names):
                    var images: [(file: String, image: Bitmap)] = []
                    for name in names {
                        let lookupStart = MonotonicClock.now()
                        let image = strategy.image(named: name)
                        measurements.lookupNanoseconds.append(MonotonicClock.now() - lookupStart)
                        let evictionsBefore = evictions
                        evictions = strategy.counters.evictions
                        guard let image, let file = files[name] else {
                            measurements.failedLookups += 1
                            continue
                        }
                        images.append((file, image))
                        if measurements.tracker.observe(image, file: file) && image.cost <= admissionCostLimit {
                            measurements.smallImageDecodes.recordDecode(
                                of: file, warnings: warnings, evictionsBefore: evictionsBefore,
                                evictionsAfter: evictions)
                        }
                    }
                    screen.show(view: view, images: images)
                case .hide(let view):
                    screen.hide(view: view)
                case .memoryWarning:
                    strategy.handleMemoryPressure(.warning)
                    warnings += 1
                    evictions = strategy.counters.evictions
                }
                measurements.peakInUseBytes = max(measurements.peakInUseBytes, screen.inUseBytes)
            }
            let live = Bitmap.memory.liveBytes - baselineBytes
            measurements.liveBytes.append(live)
            measurements.inUseBytes.append(screen.inUseBytes)
            if live > mostLiveBytes {
                mostLiveBytes = live
                measurements.residentBytesAtPeak = ResidentMemory.current()
            }
        }
        measurements.wallNanoseconds = MonotonicClock.now() - start
        measurements.peakLiveBytes = Bitmap.memory.peakBytes - baselineBytes
        measurements.counters = strategy.counters
        screen.removeAll()
        return measurements
    }
}

import Dispatch
import Foundation
import ImageStoreTestSupport
import WeakImageStore

/// Plays the network feed with every ``FeedStrategy`` at every ``ScrollSpeed`` on a dedicated UI
/// thread, each run against the same server with its counters reset and fresh folders on disk.
struct NetworkFeedBenchmark {
    let content: FeedContent
    let profile: NetworkFeedProfile
    let server: LoopbackHTTPServer

    /// How long a run waits, at most, for the decodes and responses nobody waits for any more.
    private static let idleTimeoutSeconds = 30.0

    /// Every speed × strategy, reporting progress on standard error.
    func run(speeds: [ScrollSpeed] = ScrollSpeed.allCases, strategies: [FeedStrategy] = FeedStrategy.allCases) throws
        -> [NetworkFeedRun]
    {
        try speeds.flatMap { speed in
            try strategies.map { strategy in
                Console.progress("  network feed \(speed.label), \(strategy.label)…")
                return try run(strategy, speed)
            }
        }
    }

    private func run(_ strategy: FeedStrategy, _ speed: ScrollSpeed) throws -> NetworkFeedRun {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent(
            "networkfeed-\(strategy.slug)-\(UUID().uuidString)")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        server.resetStatistics()
        let decoder = CountingDecoder()
        ResidentMemory.releaseFreeMemory()
        let baseline = Bitmap.memory
        BitmapMemory.resetPeak()
        let start = MonotonicClock.now()
        let observations = playOnUIThread(strategy, speed, folder: folder, decoder: decoder)
        waitForIdle(decoder.counts)
        let wallSeconds = Double(MonotonicClock.now() - start) / 1e9
        let downloads = FeedDownloads(
            final: Self.snapshot(server), atMemoryWarning: observations.serverAtMemoryWarning,
            atRelaunch: observations.serverAtRelaunch)
        return NetworkFeedRun(
            strategy: strategy, speed: speed, observations: observations, downloads: downloads,
            decodes: decoder.counts.finishedDecodes, stoppedDecodes: decoder.counts.stoppedDecodes,
            peakLiveBytes: Bitmap.memory.peakBytes - baseline.liveBytes,
            liveCountAfterRelease: Bitmap.memory.liveCount - baseline.liveCount, wallSeconds: wallSeconds)
    }

    /// Everything the app made is gone when this returns.
    private func playOnUIThread(
        _ strategy: FeedStrategy, _ speed: ScrollSpeed, folder: URL, decoder: CountingDecoder
    ) -> NetworkFeedUIThread.Observations {
        let server = server
        let profile = profile
        let urlsByRow = content.rows.map { [server.url($0.avatarTarget), server.url($0.photoTarget)] }
        let observations = LockedBox<NetworkFeedUIThread.Observations?>(nil)
        let finished = DispatchSemaphore(value: 0)
        let thread = Thread {
            let uiThread = NetworkFeedUIThread(
                strategy: strategy, speed: speed, urlsByRow: urlsByRow, profile: profile,
                makeLoader: { inbox in
                    Self.makeLoader(
                        strategy, folder: folder, urlsByRow: urlsByRow, profile: profile, decoder: decoder,
                        inbox: inbox)
                },
                serverSnapshot: { Self.snapshot(server) })
            observations.value = uiThread.play()
            finished.signal()
        }
        thread.name = "UI thread"
        thread.start()
        finished.wait()
        while !thread.isFinished { Thread.sleep(forTimeInterval: 0.001) }
        guard let result = observations.value else { preconditionFailure("the UI thread returned nothing") }
        return result
    }

    /// A new launch's loader; the folders under `folder` outlive it.
    private static func makeLoader(
        _ strategy: FeedStrategy, folder: URL, urlsByRow: [[URL]], profile: NetworkFeedProfile,
        decoder: CountingDecoder, inbox: UIInbox
    ) -> any FeedPictureLoader {
        switch strategy {
        case .seedNaive:
            return SeedNaiveLoader(decoder: decoder)
        case .seedFixed:
            let files = folder.appendingPathComponent("seed")
            try? FileManager.default.createDirectory(at: files, withIntermediateDirectories: true)
            return SeedFixedLoader(folder: files, urlsByRow: urlsByRow, decoder: decoder, inbox: inbox)
        case .urlCache:
            return URLCacheLoader(folder: folder.appendingPathComponent("URLCache"), decoder: decoder, inbox: inbox)
        case .store, .storeDisplaySize:
            // The relaunch opens the same folder: what the last launch downloaded is on disk.
            var configuration = ImageStore<Bitmap>.Configuration(directories: [], decoder: decoder)
            configuration.policy = .default
            configuration.downloader = ImageDownloader(maximumConcurrentDownloads: 6)
            configuration.diskCache = try? DiskImageCache(directory: folder.appendingPathComponent("ImageCache"))
            let store = ImageStore(configuration)
            return StoreLoader(
                store: store, urlsByRow: urlsByRow,
                maxPixelSize: strategy == .storeDisplaySize ? profile.cellPixelSize : nil, inbox: inbox)
        }
    }

    /// The server's counts now, once every request it received is answered or abandoned.
    static func snapshot(_ server: LoopbackHTTPServer) -> FeedDownloads.Snapshot {
        let statistics = server.statistics
        return FeedDownloads.Snapshot(
            requests: statistics.requestsByTarget.mapValues { $0.values.reduce(0, +) },
            aborted: statistics.abortedResponsesByTarget, bodyBytes: statistics.bodyBytesSent,
            bodyBytesByTarget: statistics.bodyBytesSentByTarget)
    }

    /// Waits until no decode has run for a while and the server has answered or seen abandoned
    /// every request.
    private func waitForIdle(_ counts: CountingDecoder.Counts) {
        let deadline = MonotonicClock.now() + UInt64(Self.idleTimeoutSeconds * 1e9)
        var quietChecks = 0
        while quietChecks < 3 && MonotonicClock.now() < deadline {
            quietChecks = counts.runningDecodes == 0 ? quietChecks + 1 : 0
            Thread.sleep(forTimeInterval: 0.02)
        }
        _ = server.waitUntil(timeout: 5) {
            $0.completedResponses + $0.responsesAbortedByClient >= $0.totalRequests
        }
    }
}

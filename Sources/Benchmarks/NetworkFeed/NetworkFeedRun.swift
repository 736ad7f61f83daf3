/// What one ``FeedStrategy`` cost over the whole network feed script at one speed: what the UI
/// thread saw, what the server sent, what was decoded and alive.
struct NetworkFeedRun: FrameTimedRun, PacedRun {
    let strategy: FeedStrategy
    let speed: ScrollSpeed
    let observations: NetworkFeedUIThread.Observations
    let downloads: FeedDownloads
    /// Decodes run to the end, wasted ones included, and those stopped part-way.
    let decodes: Int
    let stoppedDecodes: Int
    /// The most live decoded bytes at any moment of the run.
    let peakLiveBytes: Int
    let liveCountAfterRelease: Int
    let wallSeconds: Double

    var label: String { "\(speed.label) / \(strategy.label)" }
    var frames: [ScrollingRun.Frame] { observations.frames }
    var failedLookups: Int { observations.failedLookups }

    /// Live decoded bytes after the last frame, before the app ended.
    var finalLiveBytes: Int { observations.memory.last?.liveBytes ?? 0 }
    /// Decodes whose picture was never set where it belonged.
    var wastedDecodes: Int { decodes - observations.usedDecodes }

    /// Body bytes the server sent for pictures of rows that never appeared.
    var bytesSentForUnshownRows: Int {
        downloads.final.bodyBytesByTarget.filter { !observations.shownTargets.contains($0.key) }.values.reduce(0, +)
    }

    /// The bytes of the pictures of the rows that appeared, each URL once: what a loader that
    /// fetched exactly what was shown would have sent.
    func bytesOfShownPictures(in content: FeedContent) -> Int {
        observations.shownTargets.reduce(0) { $0 + (content.bodies[$1]?.count ?? 0) }
    }

    var rowsScrolledIn: Int { observations.rowsScrolledIn }
    var rowsScrolledInWithoutPhoto: Int { observations.rowsScrolledInWithoutPhoto }

    /// From row shown to photo set, every photo set while its row was on screen.
    var timeToPhoto: Distribution { Distribution(observations.photoTimings.map(\.nanoseconds)) }

    /// The same after the relaunch, for photos the server had sent whole before it and did not
    /// send again: they came from the app's own disk (its folder or cache).
    var diskHitTimings: [UInt64] {
        observations.photoTimings.filter { timing in
            timing.launch == 1 && downloads.atRelaunch.whole(timing.target) > 0
                && downloads.final.whole(timing.target) == downloads.atRelaunch.whole(timing.target)
        }.map(\.nanoseconds)
    }
}

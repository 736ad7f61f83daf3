import Foundation
import WeakImageStore

/// Plays the scrolling feed at every ``ScrollSpeed`` in every ``LoadingStyle`` on a dedicated
/// UI thread, each run with a fresh store on the default policy.
struct ScrollingBenchmark {
    let feed: ScrollingFeed
    let root: URL
    let profile: ScrollingProfile

    /// Every speed × style, reporting progress on standard error.
    func run() -> [ScrollingRun] {
        ScrollSpeed.fast.flatMap { speed in
            LoadingStyle.allCases.map { style in
                Console.progress("  scrolling \(speed.label) with \(style.label)…")
                return run(style, speed)
            }
        }
    }

    private func run(_ style: LoadingStyle, _ speed: ScrollSpeed) -> ScrollingRun {
        let feed = feed
        let settleSeconds = profile.settleSeconds
        let session = UIThreadSession.run(root: root) { store in
            ScrollingUIThread(style: style, speed: speed, feed: feed, store: store).play(settleSeconds: settleSeconds)
        }
        let observations = session.observations
        return ScrollingRun(
            style: style, speed: speed, frames: observations.frames,
            scrollFrames: observations.scrollFrames,
            shownToSetNanoseconds: observations.shownToSetNanoseconds,
            unfinishedRows: observations.unfinishedRows, decodes: session.decodes,
            stoppedDecodes: session.stoppedDecodes, stoppedDecodeEquivalent: session.stoppedDecodeEquivalent,
            usedDecodes: observations.usedDecodes,
            droppedDeliveries: observations.droppedDeliveries, failedLookups: observations.failedLookups,
            peakLiveBytes: session.peakLiveBytes, maximumDuplicates: observations.maximumDuplicates,
            liveCountAfterRelease: session.liveCountAfterRelease, wallSeconds: session.wallSeconds)
    }
}

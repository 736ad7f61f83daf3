import Dispatch
import Foundation
import WeakImageStore

/// Plays the scrolling feed at every ``ScrollSpeed`` in every ``LoadingStyle`` on a dedicated
/// UI thread, each run with a fresh store on the default policy.
struct ScrollingBenchmark {
    let feed: ScrollingFeed
    let root: URL
    let profile: ScrollingProfile

    /// How long a run waits, at most, for the decodes nobody waits for any more to end.
    private static let idleTimeoutSeconds = 30.0

    /// Every speed × style, reporting progress on standard error.
    func run() -> [ScrollingRun] {
        ScrollSpeed.allCases.flatMap { speed in
            LoadingStyle.allCases.map { style in
                FileHandle.standardError.write(Data("  scrolling \(speed.label) with \(style.label)…\n".utf8))
                return run(style, speed)
            }
        }
    }

    private func run(_ style: LoadingStyle, _ speed: ScrollSpeed) -> ScrollingRun {
        ResidentMemory.releaseFreeMemory()
        let baseline = Bitmap.memory
        BitmapMemory.resetPeak()
        let start = MonotonicClock.now()
        let (observations, decodes) = playOnUIThread(style, speed)
        let wallSeconds = Double(MonotonicClock.now() - start) / 1e9
        let peakLiveBytes = Bitmap.memory.peakBytes - baseline.liveBytes
        return ScrollingRun(
            style: style, speed: speed, frames: observations.frames,
            scrollFrames: observations.scrollFrames,
            shownToSetNanoseconds: observations.shownToSetNanoseconds,
            unfinishedRows: observations.unfinishedRows, decodes: decodes, usedDecodes: observations.usedDecodes,
            droppedDeliveries: observations.droppedDeliveries, failedLookups: observations.failedLookups,
            peakLiveBytes: peakLiveBytes, maximumDuplicates: observations.maximumDuplicates,
            liveCountAfterRelease: Bitmap.memory.liveCount - baseline.liveCount, wallSeconds: wallSeconds)
    }

    /// Runs the frame loop on a new thread and waits for it, then for the loads nobody waits
    /// for any more; returns what the thread saw and the decodes the store ran. The store is
    /// gone when this returns.
    private func playOnUIThread(
        _ style: LoadingStyle, _ speed: ScrollSpeed
    ) -> (ScrollingUIThread.Observations, decodes: Int) {
        let decoder = CountingDecoder()
        let store = ImageStore(directories: [root], policy: .default, decoder: decoder)
        let observations = LockedBox(ScrollingUIThread.Observations())
        let finished = DispatchSemaphore(value: 0)
        let feed = feed
        let settleSeconds = profile.settleSeconds
        let thread = Thread {
            observations.value = ScrollingUIThread(style: style, speed: speed, feed: feed, store: store)
                .play(settleSeconds: settleSeconds)
            finished.signal()
        }
        thread.name = "UI thread"
        thread.start()
        finished.wait()
        // The thread's closure holds the store until the thread has exited.
        while !thread.isFinished { Thread.sleep(forTimeInterval: 0.001) }
        waitForIdleDecoder(decoder.counts)
        return (observations.value, decoder.counts.finishedDecodes)
    }

    /// Waits until no decode has run for a while: a load whose last waiter left while it ran
    /// still finishes (and counts as wasted).
    private func waitForIdleDecoder(_ counts: CountingDecoder.Counts) {
        let deadline = MonotonicClock.now() + UInt64(Self.idleTimeoutSeconds * 1e9)
        var quietChecks = 0
        // Three quiet checks 20 ms apart cover a load between reading its file and decoding it.
        while quietChecks < 3 && MonotonicClock.now() < deadline {
            quietChecks = counts.runningDecodes == 0 ? quietChecks + 1 : 0
            Thread.sleep(forTimeInterval: 0.02)
        }
    }
}

import Dispatch
import Foundation
import WeakImageStore

/// Plays a UI workload on a dedicated thread against a fresh store (on the default policy
/// unless told otherwise), and measures around it what the store did: decodes, peak live
/// bytes, leaks.
///
/// The scrolling, gallery and blob-list workloads share it; each brings its own script as `play`.
enum UIThreadSession {
    /// What one session cost, with what the workload's own thread observed.
    struct Measurement<Observations: Sendable>: Sendable {
        let observations: Observations
        /// Decodes the store ran to the end, wasted ones included.
        let decodes: Int
        /// Decodes the store stopped part-way because nobody waited for them any more.
        let stoppedDecodes: Int
        /// The work of the stopped decodes, in average finished decodes.
        let stoppedDecodeEquivalent: Double
        /// The most live decoded bytes at any moment of the session.
        let peakLiveBytes: Int
        /// Bitmaps still alive after the thread and the store were released: 0 unless something
        /// leaked.
        let liveCountAfterRelease: Int
        let wallSeconds: Double
    }

    /// How long a session waits, at most, for the decodes nobody waits for any more to end.
    private static let idleTimeoutSeconds = 30.0

    /// Runs `play` on a new thread with a new store of the images under `root`, waits for it
    /// and for the loads nobody waits for any more, then releases the store and measures.
    static func run<Observations: Sendable>(
        root: URL, policy: CachePolicy = .default, _ play: @escaping @Sendable (ImageStore<Bitmap>) -> Observations
    ) -> Measurement<Observations> {
        ResidentMemory.releaseFreeMemory()
        let baseline = Bitmap.memory
        BitmapMemory.resetPeak()
        let start = MonotonicClock.now()
        let (observations, counts) = playOnUIThread(root: root, policy: policy, play)
        let wallSeconds = Double(MonotonicClock.now() - start) / 1e9
        return Measurement(
            observations: observations, decodes: counts.finishedDecodes, stoppedDecodes: counts.stoppedDecodes,
            stoppedDecodeEquivalent: counts.stoppedDecodeEquivalent,
            peakLiveBytes: Bitmap.memory.peakBytes - baseline.liveBytes,
            liveCountAfterRelease: Bitmap.memory.liveCount - baseline.liveCount, wallSeconds: wallSeconds)
    }

    /// The store is gone when this returns.
    private static func playOnUIThread<Observations: Sendable>(
        root: URL, policy: CachePolicy, _ play: @escaping @Sendable (ImageStore<Bitmap>) -> Observations
    ) -> (Observations, CountingDecoder.Counts) {
        let decoder = CountingDecoder()
        var configuration = ImageStore<Bitmap>.Configuration(directories: [root], decoder: decoder)
        configuration.policy = policy
        configuration.extensions = CorpusLayout.fileExtensions
        let store = ImageStore(configuration)
        let observations = LockedBox<Observations?>(nil)
        let finished = DispatchSemaphore(value: 0)
        let thread = Thread {
            observations.value = play(store)
            finished.signal()
        }
        thread.name = "UI thread"
        thread.start()
        finished.wait()
        // The thread's closure holds the store until the thread has exited.
        while !thread.isFinished { Thread.sleep(forTimeInterval: 0.001) }
        waitForIdleDecoder(decoder.counts)
        guard let result = observations.value else { preconditionFailure("the UI thread returned nothing") }
        return (result, decoder.counts)
    }

    /// Waits until no decode has run for a while: a load whose last waiter left while it ran
    /// stops or finishes (and counts as wasted).
    private static func waitForIdleDecoder(_ counts: CountingDecoder.Counts) {
        let deadline = MonotonicClock.now() + UInt64(idleTimeoutSeconds * 1e9)
        var quietChecks = 0
        // Three quiet checks 20 ms apart cover a load between reading its file and decoding it.
        while quietChecks < 3 && MonotonicClock.now() < deadline {
            quietChecks = counts.runningDecodes == 0 ? quietChecks + 1 : 0
            Thread.sleep(forTimeInterval: 0.02)
        }
    }
}

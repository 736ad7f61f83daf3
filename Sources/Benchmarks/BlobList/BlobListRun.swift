/// What one ``BlobListStrategy`` cost while the list opened and scrolled at one speed: what the
/// UI thread saw, what the session measured around it and what the table handed out.
struct BlobListRun: FrameTimedRun, PacedRun {
    let strategy: BlobListStrategy
    let speed: ScrollSpeed
    let session: UIThreadSession.Measurement<BlobListUIThread.Observations>
    /// The table's counts over the run, read after the store was released.
    let blobs: BlobTable.Usage

    var label: String { "\(speed.label) / \(strategy.label)" }

    var observations: BlobListUIThread.Observations { session.observations }
    var frames: [ScrollingRun.Frame] { observations.frames }
    var failedLookups: Int { observations.failedLookups }
    var liveCountAfterRelease: Int { session.liveCountAfterRelease }

    /// Peak blob bytes plus peak decoded bytes: at least the peak of their sum, and equal to it
    /// for the eager strategy, whose blobs are all alive from the first frame to the last.
    var peakBytes: Int { blobs.peakLiveBytes + session.peakLiveBytes }
    /// Decodes whose image no row on screen used.
    var wastedDecodes: Int { session.decodes - observations.usedDecodes }

    var rowsScrolledIn: Int { observations.rowsScrolledIn }
    var rowsScrolledInWithoutPhoto: Int { observations.rowsScrolledInWithoutPhoto }

    /// From row shown to photo set, every photo set while its row was on screen.
    var timeToPhoto: Distribution { Distribution(observations.shownToSetNanoseconds) }

    /// Blob bytes read for rows that never appeared: by the query (eager) or by the prefetcher.
    var bytesReadForUnshownRows: Int {
        blobs.bytesReadByRow.filter { !observations.shownRowIDs.contains($0.key) }.values.reduce(0, +)
    }

    /// The blob bytes of the rows that appeared, each row once: what reading exactly the rows
    /// shown would have read.
    func bytesOfShownRows(in table: BlobTable) -> Int {
        observations.shownRowIDs.reduce(0) { $0 + table.blobByteCount(ofRow: $1) }
    }

    /// All blob bytes read ÷ ``bytesOfShownRows(in:)``; 0 when no row was shown.
    func readOverShown(in table: BlobTable) -> Double {
        let shown = bytesOfShownRows(in: table)
        return shown == 0 ? 0 : Double(blobs.bytesRead) / Double(shown)
    }

    /// ``FrameTimedRun/measurementWarnings(context:)``, and blobs still alive after the list closed
    /// and the store was released.
    func blobListWarnings(context: String) -> [String] {
        guard blobs.liveBytes != 0 else { return measurementWarnings(context: context) }
        return measurementWarnings(context: context)
            + ["\(context): \(blobs.liveBytes) blob bytes still alive after the list closed"]
    }
}

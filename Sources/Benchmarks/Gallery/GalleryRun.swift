/// What one ``GalleryMode`` cost under one policy while flinging through the grid and opening
/// photos: what the UI thread saw and what the session measured around it.
struct GalleryRun: FrameTimedRun {
    let mode: GalleryMode
    /// The store's live-cost limit, or nil for the default policy (no budget).
    let liveCostLimit: Int?
    let session: UIThreadSession.Measurement<GalleryUIThread.Observations>

    /// The mode, and the budget if there is one.
    var label: String {
        liveCostLimit.map { "\(mode.label), \(Format.mebibytes($0)) MiB budget" } ?? mode.label
    }

    /// ``label`` for files and CSV fields.
    var slug: String {
        liveCostLimit.map { "\(mode.slug)-budget-\($0 / (1024 * 1024))mib" } ?? mode.slug
    }

    var observations: GalleryUIThread.Observations { session.observations }
    /// Every frame: flings, stops, opened photos.
    var frames: [ScrollingRun.Frame] { observations.frames }
    var failedLookups: Int { observations.failedLookups }
    var liveCountAfterRelease: Int { session.liveCountAfterRelease }
    /// Decodes whose image was never set: finished for cells already gone.
    var wastedDecodes: Int { session.decodes - observations.usedDecodes }
}

/// What one ``GalleryMode`` cost while flinging through the grid and opening photos: what the
/// UI thread saw and what the session measured around it.
struct GalleryRun: FrameTimedRun {
    let mode: GalleryMode
    let session: UIThreadSession.Measurement<GalleryUIThread.Observations>

    var observations: GalleryUIThread.Observations { session.observations }
    /// Every frame: flings, stops, opened photos.
    var frames: [ScrollingRun.Frame] { observations.frames }
    var failedLookups: Int { observations.failedLookups }
    var liveCountAfterRelease: Int { session.liveCountAfterRelease }
    /// Decodes whose image was never set: finished for cells already gone.
    var wastedDecodes: Int { session.decodes - observations.usedDecodes }
}

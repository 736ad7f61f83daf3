/// What one ``GalleryMode`` cost while flinging through the grid and opening photos.
struct GalleryRun: FrameTimedRun {
    let mode: GalleryMode
    /// Every frame: flings, stops, opened photos.
    let frames: [ScrollingRun.Frame]
    let flingCount: Int
    /// The frames in which a photo was opened.
    let openFrames: [Int]
    /// Photos opened full size whose image arrived, and nanoseconds from opening to shown.
    let openToShownNanoseconds: [UInt64]
    /// Opened photos whose image did not arrive within the settle time.
    let unshownPhotos: Int
    /// Cells that left the screen before their image was set.
    let unfinishedCells: Int
    /// Decodes the store ran, wasted ones included.
    let decodes: Int
    /// Distinct decoded images that were set on a cell or the opened photo.
    let usedDecodes: Int
    let failedLookups: Int
    /// The most live decoded bytes at any moment of the run.
    let peakLiveBytes: Int
    /// The most live instances with the same pixels (one file at one size) at once, minus one.
    let maximumDuplicates: Int
    /// Bitmaps still alive after the grid and the store were released: 0 unless something leaked.
    let liveCountAfterRelease: Int
    let wallSeconds: Double

    /// Decodes whose image was never set: finished for cells already gone.
    var wastedDecodes: Int { decodes - usedDecodes }
}

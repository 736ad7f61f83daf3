import WeakImageStore

/// A cell that shows one image: a grid's photo, a list row's, an opened photo.
struct ImageCell: LoadingCell {
    /// What the cell shows: a row or a photo of the workload's model.
    let item: Int
    /// When it was configured, to time how long its image took.
    let shownAt: UInt64
    var image: Bitmap?
    /// The load started for it, when its image was not in memory.
    var task: Task<Void, Never>?

    init(item: Int, shownAt: UInt64 = MonotonicClock.now()) {
        self.item = item
        self.shownAt = shownAt
    }

    func cancelLoads() {
        task?.cancel()
    }
}

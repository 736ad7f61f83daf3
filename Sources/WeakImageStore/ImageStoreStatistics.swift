/// Counters of an ``ImageStore`` since it was created, and the current size of its layers.
///
/// Every lookup ends in exactly one of four ways, so
/// `lookups == strongHits + weakHits + misses + coalescedLoads` always holds.
public struct ImageStoreStatistics: Sendable, Equatable {
    /// Calls of `image(named:)`, `loadImage(named:)`, `image(contentsOfFile:)` and
    /// `loadImage(contentsOfFile:)`.
    public var lookups = 0
    /// Lookups answered by the strong layer (the LRU, or the map of `.strong` and
    /// `.retainCountSweep`).
    public var strongHits = 0
    /// Lookups answered by the weak layer: the image was alive because someone still held it.
    public var weakHits = 0
    /// Lookups that found no image and no load in progress: they loaded the file themselves, or
    /// failed (bad name, missing file, unreadable file, decoding error).
    public var misses = 0
    /// Times the decoder ran, successfully or not.
    public var decodes = 0
    /// Lookups that waited for another thread's load of the same image instead of decoding again.
    public var coalescedLoads = 0
    /// Strong references the store dropped on its own: LRU limits, retain-count sweeps and memory
    /// pressure. `removeAll()` is not counted.
    public var evictions = 0
    /// The summed ``StorableImage/cost`` of the images the strong layer holds now.
    public var strongCost = 0
    /// The number of images the strong layer holds now.
    public var strongCount = 0
    /// The number of entries in the weak table now, including entries whose image has died and
    /// which have not been pruned yet.
    public var weakCount = 0

    /// Creates statistics with every counter at zero.
    public init() {}
}

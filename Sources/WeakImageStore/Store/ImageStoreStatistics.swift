/// Counters of an ``ImageStore`` since it was created, and the current size of its layers.
///
/// Every lookup ends in exactly one of four ways, so
/// `lookups == strongHits + weakHits + misses + coalescedLoads` always holds.
public struct ImageStoreStatistics: Sendable, Equatable {
    /// Lookups of every kind: synchronous (`image(named:)`, `loadImage(named:)` and their
    /// `contentsOfFile:` twins), asynchronous, memory-only (`cachedImage`) and one per name of a
    /// prefetch.
    public var lookups = 0
    /// Lookups answered by the strong layer (the LRU, or the map of `.strong` and
    /// `.retainCountSweep`).
    public var strongHits = 0
    /// Lookups answered by the weak layer: the image was alive because someone still held it.
    public var weakHits = 0
    /// Lookups that found no image and no load in progress: they loaded the file themselves (or
    /// queued its load), failed (bad name, missing file, unreadable file, decoding error), were
    /// cancelled before they could join a load, or were memory-only lookups that found nothing.
    public var misses = 0
    /// Times the decoder ran, successfully or not.
    public var decodes = 0
    /// Decodes, among ``decodes``, of damaged files that the decoder still showed, as well as it
    /// could: a truncated JPEG with its missing part gray, a JPEG with corrupt scan data (see
    /// ``JPEGDecoder/strict`` and ``ImageDecoding/decodeReportingDamage(_:scale:maxPixelSize:)``).
    public var damagedDecodes = 0
    /// Lookups that joined a load of the same image already in progress (running or queued)
    /// instead of starting another.
    public var coalescedLoads = 0
    /// Loads queued for the store's loading threads by asynchronous lookups and prefetches.
    public var loadsScheduled = 0
    /// Queued loads dropped before they started because their last waiter left (a cancelled
    /// task or prefetch) or ``ImageStore/removeAll()`` cancelled them.
    public var loadsCancelledBeforeStart = 0
    /// Loads stopped while a loading thread ran them, because their last waiter left: before
    /// reading the file, before decoding it, or part-way through the decode (the built-in PNG and
    /// JPEG decoders check as they go; other decoders run to the end). A load that someone joins
    /// after it stopped is queued again.
    public var loadsStoppedWhileRunning = 0
    /// Queued loads that a synchronous lookup took over and ran on its own thread rather than
    /// wait behind other queued work.
    public var loadsTakenOver = 0
    /// Asynchronous and prefetch waiters that got ``ImageStoreError/cancelled`` instead of a
    /// result.
    public var waitersCancelled = 0
    /// Strong references the store dropped on its own: LRU limits, retain-count sweeps and memory
    /// pressure. `removeAll()` is not counted.
    public var evictions = 0
    /// Transfers the store's ``ImageDownloader`` started (one per URL however many lookups wait
    /// for it; failures remembered for the back-off start none). Counted by the downloader: stores
    /// sharing one see the same figures.
    public var downloadsStarted = 0
    /// Transfers that delivered a whole body.
    public var downloadsCompleted = 0
    /// Transfers stopped at the socket, or dropped before they started, because nobody waited for
    /// them any more.
    public var downloadsCancelled = 0
    /// Body bytes received by the downloader.
    public var bytesDownloaded = 0
    /// Bodies of `.url` requests read from the store's ``DiskImageCache`` (fresh entries, entries
    /// a `304 Not Modified` confirmed, and stale entries served when the network failed). Counted
    /// by the cache: stores sharing one see the same figures, as for the downloader's.
    public var diskHits = 0
    /// Lookups of the disk cache that found no usable entry.
    public var diskMisses = 0
    /// Bodies written into the disk cache.
    public var diskWrites = 0
    /// Stale entries a `304 Not Modified` confirmed: their metadata refreshed, no body written.
    public var revalidations = 0
    /// Disk-cache faults the store carried on through: an entry truncated or altered behind the
    /// cache's back, a full disk, an unwritable or vanished folder, a damaged index.
    public var diskErrors = 0
    /// The summed ``StorableImage/cost`` of the images the strong layer holds now.
    public var strongCost = 0
    /// The number of images the strong layer holds now.
    public var strongCount = 0
    /// The number of entries in the weak table now. Entries of images that report their death
    /// (``Bitmap``, `UIImage`, `NSImage`) go the moment the image dies, so for them this is the
    /// number of live images; entries of other image types stay until pruned.
    public var weakCount = 0
    /// The summed ``StorableImage/cost`` of this store's images alive right now: every image it
    /// handed out that someone still holds, a view, the LRU, or both, each counted once.
    ///
    /// Exact at every instant for images that report their death (``Bitmap``, `UIImage`,
    /// `NSImage`): an image leaves the figure before the thread that freed it carries on. For
    /// other image types it is found by checking weak references when read.
    public var liveCost = 0
    /// The number of this store's images alive right now, counted as ``liveCost`` is.
    public var liveCount = 0
    /// The highest ``liveCost`` since the store was created or ``ImageStore/resetPeakLiveCost()``
    /// was called.
    public var peakLiveCost = 0
    /// The policy's live-byte budget (`.weakWithBudgetedLRU`), or nil for none.
    public var liveCostLimit: Int?
    /// Times the images in use alone came to exceed ``liveCostLimit`` with the LRU already
    /// empty; each overrun is counted once, until live bytes fit again.
    public var budgetOverruns = 0
    /// Disk-cache transactions given up because another process held the cache's lock past the
    /// deadline: the disk served misses and skipped writes meanwhile, and the pictures came from
    /// the network.
    public var diskLockTimeouts = 0
    /// Frames decoded by this store's animations, each one counted once however many views
    /// show it.
    public var animationFrameDecodes = 0
    /// Frames the animations keep within the frame budget (the frames on screen not counted).
    public var animationFramesHeld = 0
    /// The bytes of the frames and keyframes the animations keep within the frame budget.
    public var animationFrameBytesHeld = 0
    /// Frames a player found not decoded when they were due (it kept the previous one on screen).
    public var animationFramesLate = 0
    /// ``ImageStore/Configuration/animationFrameBudget``.
    public var animationFrameBudget = 0

    /// Creates statistics with every counter at zero.
    public init() {}
}

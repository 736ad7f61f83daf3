import Foundation

/// What the store holds in memory, reached only under its lock beside the loads in flight
/// (``StoreState``): the images (``storage``), what requests resolved to, the pixel sizes read
/// from headers, the live-image ledger and budget, and the counters.
///
/// Its lookups answer from memory alone and count what they find; they never touch the file
/// system, decode or free an image.
struct MemoryState: Sendable {
    /// What memory alone says about a request.
    enum Lookup {
        case found(CachedImage)
        case failed(ImageStoreError)
        /// The request was never resolved (or its resolution was forgotten).
        case unresolved
        /// The source is known but its image is not in memory.
        case missing(ImageLocator)
        /// The source is known, but which key the thumbnail is depends on a size not known yet.
        case unsized(UnsizedThumbnail)
    }

    /// How one lookup ended, for the counters.
    enum Outcome { case strongHit, weakHit, miss, coalesced }

    var storage: any ImageCacheStorage
    var resolutions = ResolutionCache()
    var pixelSizes = PixelSizeCache()
    var counters = ImageStoreStatistics()
    var live = LiveImageLedger<ImageKey>()
    var budget = LiveCostBudget()
    /// Bytes of the live-cost limit reserved for decodes in progress: what their images will
    /// cost once they exist. 0 without a limit.
    var decodingCost = 0
    /// Whether a probe that misses costs nothing, so the name hit path may probe before the full
    /// lookup probes again; the policy's, read once rather than through the storage on every hit.
    private let probesAreFree: Bool

    init(policy: CachePolicy) {
        storage = policy.makeStorage()
        probesAreFree = !storage.countsLookups
    }

    /// The hit path of a full-size name: its image if the name resolved before and memory holds
    /// the image, counted as a hit. Nil leaves the lookup to the load state machine, which counts
    /// it; that small return, unlike a ``LoadStep``, comes back in registers.
    mutating func hit(named name: String, released: inout [CachedImage]) -> CachedImage? {
        // A miss here is probed again by the full lookup: only storages whose probes are free.
        guard probesAreFree, let index = resolutions.index(ofName: name) else { return nil }
        return countedHit(lookUpFile(at: index, released: &released))
    }

    /// A memory-only lookup that never loads: the image, or nil (counted as a miss).
    mutating func cachedImage(_ request: ImageRequest, released: inout [CachedImage]) -> CachedImage? {
        switch lookUp(request, released: &released) {
        case .found(let image):
            return image
        case .failed:
            return nil
        case .unresolved, .missing, .unsized:
            count(.miss)
            return nil
        }
    }

    /// Looks `request` up in memory, counting hits and remembered failures; a miss is counted by
    /// whoever ends the lookup. Inlined, like the helpers below, so a hit's image is not copied
    /// (retained and released) from enum to enum.
    @inline(__always)
    mutating func lookUp(_ request: ImageRequest, released: inout [CachedImage]) -> Lookup {
        // Full-size names: the slot hint remembered with the resolution.
        if request.maxPixelSize == nil, case .named(let name) = request.source,
            let index = resolutions.index(ofName: name)
        {
            return counted(lookUpFile(at: index, released: &released))
                ?? .missing(resolutions.file(at: index).source)
        }
        switch ImageFetcher.resolvedWithoutFileSystem(request.source) ?? resolutions[request.source] {
        case nil:
            return .unresolved
        case .failure(let error):
            count(.miss)
            return .failed(error)
        case .success(let fullSize):
            var source = fullSize
            if let maxPixelSize = request.maxPixelSize {
                let thumbnail = UnsizedThumbnail(of: fullSize, maxPixelSize: maxPixelSize)
                guard let reduced = sourceIfSizeKnown(thumbnail) else { return .unsized(thumbnail) }
                source = reduced
            }
            var hint = SlotHint()
            return counted(probe(source.key, hint: &hint, released: &released)) ?? .missing(source)
        }
    }

    /// The image memory holds for `key`, not counted.
    mutating func image(for key: ImageKey, released: inout [CachedImage]) -> CachedImage? {
        var hint = SlotHint()
        switch probe(key, hint: &hint, released: &released) {
        case .strongHit(let image), .weakHit(let image): return image
        case .miss: return nil
        }
    }

    /// The image memory holds for `key`, counted as a hit; nil for a miss, which is counted
    /// once its lookup ends.
    mutating func countedImage(for key: ImageKey, released: inout [CachedImage]) -> CachedImage? {
        var hint = SlotHint()
        return countedHit(probe(key, hint: &hint, released: &released))
    }

    /// The thumbnail's source, if its full-size image's pixel size is known; nil when a header
    /// must be read first.
    func sourceIfSizeKnown(_ thumbnail: UnsizedThumbnail) -> ImageLocator? {
        switch pixelSizes[thumbnail.fullSize.key.source] {
        case nil: nil
        case .unknown: thumbnail.source(forImageSize: nil)
        case .known(let size): thumbnail.source(forImageSize: size)
        }
    }

    /// Records the pixel size read from a thumbnail's bytes (nil: the decoder cannot tell) and
    /// returns the thumbnail's source.
    mutating func measured(_ thumbnail: UnsizedThumbnail, size: PixelSize?) -> ImageLocator {
        pixelSizes.remember(size, for: thumbnail.fullSize.key.source)
        return thumbnail.source(forImageSize: size)
    }

    /// Forgets the resolutions that led to a file that vanished or cannot be read.
    mutating func forgetResolutions(after error: ImageStoreError, of requests: [ImageRequest]) {
        switch error {
        case .notFound, .unreadable:
            for request in requests { resolutions.forget(request.source) }
        default:
            break
        }
    }

    mutating func handleMemoryPressure(_ level: MemoryPressureLevel, released: inout [CachedImage]) {
        let before = released.count
        storage.handleMemoryPressure(level, released: &released)
        counters.evictions += released.count - before
    }

    /// Drops the strong references, the resolutions and the pixel sizes.
    mutating func removeAll(released: inout [CachedImage]) {
        storage.removeAll(released: &released)
        resolutions.removeAll()
        pixelSizes.removeAll()
    }

    var statistics: ImageStoreStatistics {
        var statistics = counters
        statistics.strongCost = storage.strongCost
        statistics.strongCount = storage.strongCount
        statistics.weakCount = storage.weakCount
        addLiveImageStatistics(to: &statistics)
        return statistics
    }

    /// Counts one lookup by how it ended, so `lookups` always adds up.
    @inline(__always)
    mutating func count(_ outcome: Outcome) {
        counters.lookups += 1
        switch outcome {
        case .strongHit: counters.strongHits += 1
        case .weakHit: counters.weakHits += 1
        case .miss: counters.misses += 1
        case .coalesced: counters.coalescedLoads += 1
        }
    }

    // MARK: Lookup internals

    @inline(__always)
    private mutating func lookUpFile(at index: ResolutionCache.NameIndex, released: inout [CachedImage]) -> CacheLookup
    {
        let before = released.count
        let found = resolutions.lookUpFile(at: index, in: storage, released: &released)
        counters.evictions += released.count - before
        return found
    }

    @inline(__always)
    private mutating func probe(_ key: ImageKey, hint: inout SlotHint, released: inout [CachedImage]) -> CacheLookup {
        let before = released.count
        let found = storage.lookup(key, hint: &hint, released: &released)
        counters.evictions += released.count - before
        return found
    }

    /// Counts a hit and returns it as found; nil for a miss.
    @inline(__always)
    private mutating func counted(_ found: CacheLookup) -> Lookup? {
        guard let image = countedHit(found) else { return nil }
        return .found(image)
    }

    /// Counts a hit and returns its image; nil for a miss.
    @inline(__always)
    private mutating func countedHit(_ found: CacheLookup) -> CachedImage? {
        switch found {
        case .strongHit(let image):
            count(.strongHit)
            return image
        case .weakHit(let image):
            count(.weakHit)
            return image
        case .miss:
            return nil
        }
    }
}

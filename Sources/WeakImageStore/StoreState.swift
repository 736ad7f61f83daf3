/// Everything mutable in an ``ImageStore``, reached only under its lock.
///
/// Each method is one critical section: it updates the state and returns what the caller must do
/// next (resolve, load, wait) plus the images to release once the lock is dropped. Nothing here
/// touches the file system, decodes, or frees an image.
struct StoreState: Sendable {
    /// The caller's next step after a critical section.
    enum Step {
        /// Done: the image was in memory.
        case found(CachedImage)
        /// Done: there is no image, for this reason.
        case failed(ImageStoreError)
        /// The request is not resolved yet: resolve it unlocked, then call ``resolved(_:as:released:)``.
        case resolve
        /// Nobody has the image: load it unlocked, then call
        /// ``finishLoad(_:of:result:decoded:released:)``.
        /// `pending` is nil when loads are not shared (`.uncached`).
        case load(ResourceKey, pending: PendingLoad?)
        /// Another thread is loading the image: wait for it.
        case wait(PendingLoad)
    }

    var storage: any ImageCacheStorage
    var resolutions = ResolutionCache()
    var inFlight = InFlightLoads()
    var counters = ImageStoreStatistics()
    var live = LiveImageLedger<ResourceKey>()
    var budget = LiveCostBudget()

    init(policy: CachePolicy) {
        storage = policy.makeStorage()
    }

    /// The first critical section of every lookup.
    mutating func lookUp(_ request: LookupRequest, released: inout [CachedImage]) -> Step {
        if case .name(let name) = request, let index = resolutions.index(ofName: name) {
            let file = resolutions[index]
            var hint = file.hint
            let step = lookUp(file.key, hint: &hint, released: &released)
            if hint != file.hint { resolutions.setHint(hint, at: index) }
            return step
        }
        guard let resolution = resolutions[request] else { return .resolve }
        return lookUp(resolution, released: &released)
    }

    /// Records a resolution made outside the lock and continues the lookup with it.
    mutating func resolved(
        _ request: LookupRequest, as resolution: Result<ResourceKey, ImageStoreError>, released: inout [CachedImage]
    ) -> Step {
        resolutions.remember(resolution, for: request)
        return lookUp(resolution, released: &released)
    }

    /// Stores a finished load and ends its in-flight entry. A failure is not cached; a file that
    /// vanished or changed also makes the request's resolution stale.
    mutating func finishLoad(
        _ request: LookupRequest, of key: ResourceKey, result: Result<CachedImage, ImageStoreError>,
        decoded: Bool, released: inout [CachedImage]
    ) {
        if decoded { counters.decodes += 1 }
        if storage.sharesImages {
            inFlight.finish(key)
        }
        switch result {
        case .success(let image):
            let before = released.count
            storeLoaded(image, for: key, released: &released)
            counters.evictions += released.count - before
        case .failure(.notFound), .failure(.unreadable):
            resolutions.forget(request)
        case .failure:
            break
        }
    }

    mutating func handleMemoryPressure(_ level: MemoryPressureLevel, released: inout [CachedImage]) {
        let before = released.count
        storage.handleMemoryPressure(level, released: &released)
        counters.evictions += released.count - before
    }

    mutating func removeAll(released: inout [CachedImage]) {
        storage.removeAll(released: &released)
        resolutions.removeAll()
    }

    var statistics: ImageStoreStatistics {
        var statistics = counters
        statistics.strongCost = storage.strongCost
        statistics.strongCount = storage.strongCount
        statistics.weakCount = storage.weakCount
        addLiveImageStatistics(to: &statistics)
        return statistics
    }

    private mutating func lookUp(_ resolution: Result<ResourceKey, ImageStoreError>, released: inout [CachedImage])
        -> Step
    {
        switch resolution {
        case .failure(let error):
            counters.lookups += 1
            counters.misses += 1
            return .failed(error)
        case .success(let key):
            var hint = SlotHint()
            return lookUp(key, hint: &hint, released: &released)
        }
    }

    private mutating func lookUp(_ key: ResourceKey, hint: inout SlotHint, released: inout [CachedImage]) -> Step {
        counters.lookups += 1
        let before = released.count
        let found = storage.lookup(key, hint: &hint, released: &released)
        counters.evictions += released.count - before
        switch found {
        case .strongHit(let image):
            counters.strongHits += 1
            return .found(image)
        case .weakHit(let image):
            counters.weakHits += 1
            return .found(image)
        case .miss:
            guard storage.sharesImages else {
                counters.misses += 1
                return .load(key, pending: nil)
            }
            switch inFlight.admit(key) {
            case .started(let pending):
                counters.misses += 1
                return .load(key, pending: pending)
            case .joined(let pending):
                counters.coalescedLoads += 1
                return .wait(pending)
            }
        }
    }
}

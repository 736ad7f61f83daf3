/// Every image one store handed out that is alive right now, and their summed cost.
///
/// Images that report their death (``DeathReporting`` types such as ``Bitmap``, and any
/// `NSObject` such as `UIImage`) are added when the store registers them and removed when their
/// report arrives, so their figures are exact at every instant. Other image types are held
/// weakly here and counted by looking at each weak reference: exact when read, pruned amortized.
struct LiveImageLedger<Key: Hashable & Sendable>: Sendable {
    private struct WatchedImage: Sendable {
        let key: Key
        let cost: Int
    }

    private struct UnwatchedImage: Sendable {
        weak var object: (any AnyObject & Sendable)?
        let cost: Int
    }

    /// Registrations between prunes of unwatched images never fall below this.
    private static var minimumPruneInterval: Int { 32 }

    /// Who the images report to: the store's engine.
    weak var observer: (any ImageDeathObserver)?
    private var watched: [DeathToken: WatchedImage] = [:]
    private var watchedCost = 0
    private var unwatched: [DeathToken: UnwatchedImage] = [:]
    private var lastToken: UInt64 = 0
    private var unwatchedSincePrune = 0
    private var pruneInterval = minimumPruneInterval
    /// The highest ``liveCost`` seen at a registration since the store was created or the peak
    /// was reset. Live bytes only grow at registrations, so no higher value was missed.
    private(set) var peakLiveCost = 0

    init() {}

    /// The summed cost of the live images.
    ///
    /// - Complexity: O(1) when every image reports its death, else O(unwatched images).
    var liveCost: Int {
        guard !unwatched.isEmpty else { return watchedCost }
        // Loading a weak reference retains and releases the image: safe under the store's lock
        // only because unwatched images never take it when they die.
        return unwatched.values.reduce(watchedCost) { $1.object == nil ? $0 : $0 + $1.cost }
    }

    /// The number of live images.
    var liveCount: Int {
        guard !unwatched.isEmpty else { return watched.count }
        return unwatched.values.reduce(watched.count) { $1.object == nil ? $0 : $0 + 1 }
    }

    /// Whether every image registered so far reports its death.
    var isExact: Bool { unwatched.isEmpty }

    /// Counts `image`, filed under `key`, as live, and asks it to report its death.
    ///
    /// - Returns: The token the image reports under, or ``DeathToken/unwatched`` when it cannot
    ///   report its death.
    mutating func register(_ image: CachedImage, for key: Key) -> DeathToken {
        lastToken += 1
        let token = DeathToken(value: lastToken)
        defer { peakLiveCost = max(peakLiveCost, liveCost) }
        if let notifier = DeathNotifier.of(image.object) {
            watched[token] = WatchedImage(key: key, cost: image.cost)
            watchedCost += image.cost
            // The notifier's lock (and, for NSObject images, the attachment lock and the runtime's
            // association lock) are leaves: taking them under the store's lock cannot deadlock.
            notifier.register(DeathRegistration(observer: observer, token: token))
            return token
        }
        unwatched[token] = UnwatchedImage(object: image.object, cost: image.cost)
        unwatchedSincePrune += 1
        if unwatchedSincePrune >= pruneInterval {
            pruneUnwatched()
        }
        return .unwatched
    }

    /// Stops counting the image registered under `token`, which died.
    ///
    /// - Returns: The key it was filed under and its cost, or nil if the token is unknown.
    mutating func imageDied(_ token: DeathToken) -> (key: Key, cost: Int)? {
        guard let image = watched.removeValue(forKey: token) else { return nil }
        watchedCost -= image.cost
        return (image.key, image.cost)
    }

    /// Starts a new peak measurement at the current ``liveCost``.
    mutating func resetPeak() {
        peakLiveCost = liveCost
    }

    /// Forgets unwatched images that died.
    ///
    /// - Complexity: O(unwatched images).
    mutating func pruneUnwatched() {
        unwatched = unwatched.filter { $0.value.object != nil }
        unwatchedSincePrune = 0
        pruneInterval = max(Self.minimumPruneInterval, unwatched.count)
    }
}

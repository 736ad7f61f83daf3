import Foundation
import WeakImageStore

/// One way an app can keep decoded images, as the replays drive it: an `ImageStore` policy or a
/// peer built from Foundation. A fresh instance serves each replay.
protocol ImageStrategy: AnyObject {
    /// The image for `name`, resolved as `UIImage(named:)` does, or nil.
    func image(named name: String) -> Bitmap?
    /// The app received a memory warning.
    func handleMemoryPressure(_ level: MemoryPressureLevel)
    /// The strategy's own counters so far.
    var counters: StrategyCounters { get }
}

/// What a strategy reports about itself. The replay counts decodes independently and checks
/// them against ``decodes``.
struct StrategyCounters {
    var decodes = 0
    /// Lookups answered by a strong reference the strategy kept.
    var strongHits = 0
    /// Lookups answered by an image kept alive only by its users.
    var weakHits = 0
    /// Strong references dropped by the strategy's own limits, sweeps or memory pressure.
    var evictions = 0
}

/// A strategy to benchmark: its label in tables and charts, and how to make a fresh instance.
struct StrategyKind {
    let label: String
    let make: (_ corpusRoot: URL) -> any ImageStrategy

    /// The label of the default policy, which the goals are about.
    static let defaultPolicyLabel = "weak + LRU"
    /// The labels of the two strategies the goals compare the default policy with.
    static let weakDictionaryLabel = "weak dictionary"
    static let nsCacheWeakTableLabel = "NSCache + weak table"

    /// The five ImageStore policies, then the two Foundation peers with the default policy's
    /// cost limit.
    static func all(lruCostLimit: Int) -> [StrategyKind] {
        let policies: [(String, CachePolicy)] = [
            ("Resource", .uncached),
            ("ImageAssets", .strong),
            ("MRC + dictionary", .retainCountSweep),
            (weakDictionaryLabel, .weak),
            (defaultPolicyLabel, .default),
        ]
        return policies.map { label, policy in
            StrategyKind(label: label) { StoreStrategy(policy: policy, root: $0) }
        } + [
            StrategyKind(label: "NSCache") { NSCacheStrategy(root: $0, costLimit: lruCostLimit) },
            StrategyKind(label: nsCacheWeakTableLabel) { NSCacheWeakTableStrategy(root: $0, costLimit: lruCostLimit) },
        ]
    }
}

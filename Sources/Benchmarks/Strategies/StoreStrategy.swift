import Foundation
import WeakImageStore

/// An `ImageStore<Bitmap>` with one ``CachePolicy`` and the library's `PNGDecoder`.
final class StoreStrategy: ImageStrategy {
    private let store: ImageStore<Bitmap>

    init(policy: CachePolicy, root: URL) {
        store = ImageStore(directories: [root], policy: policy, decoder: PNGDecoder())
    }

    func image(named name: String) -> Bitmap? {
        store.image(named: name)
    }

    func handleMemoryPressure(_ level: MemoryPressureLevel) {
        store.handleMemoryPressure(level)
    }

    var counters: StrategyCounters {
        let statistics = store.statistics
        return StrategyCounters(
            decodes: statistics.decodes, strongHits: statistics.strongHits,
            weakHits: statistics.weakHits, evictions: statistics.evictions)
    }
}

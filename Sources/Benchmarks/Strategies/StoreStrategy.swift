import Foundation
import WeakImageStore

/// An `ImageStore<Bitmap>` with one ``CachePolicy`` and the library's `BitmapDecoder` (PNG and
/// JPEG), finding names with any of ``CorpusLayout/fileExtensions``.
final class StoreStrategy: ImageStrategy {
    private let store: ImageStore<Bitmap>

    init(policy: CachePolicy, root: URL) {
        var configuration = ImageStore<Bitmap>.Configuration(directories: [root], decoder: BitmapDecoder())
        configuration.policy = policy
        configuration.extensions = CorpusLayout.fileExtensions
        store = ImageStore(configuration)
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

import Foundation
import WeakImageStore

/// An `ImageStore<Bitmap>` with one ``CachePolicy`` and the library's `BitmapDecoder` (PNG and
/// JPEG), finding names with any of ``CorpusLayout/fileExtensions``.
final class StoreStrategy: ImageStrategy {
    private let store: ImageStore<Bitmap>

    init(policy: CachePolicy, root: URL) {
        store = ImageStore(
            directories: [root], policy: policy, extensions: CorpusLayout.fileExtensions, decoder: BitmapDecoder())
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

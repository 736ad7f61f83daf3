import Foundation
import WeakImageStore

/// The library's ``DiskImageCache``: a journal read at open, bodies renamed into place, a hard
/// size limit.
struct OurDiskImageCache: DiskCacheCandidate {
    static let name = "DiskImageCache (journal)"
    private let cache: DiskImageCache

    init(directory: URL) throws {
        cache = try DiskImageCache(directory: directory, sizeLimit: DiskCacheBenchmark.sizeLimit)
    }

    func store(_ data: Data, for url: URL) {
        cache.storeData(data, for: .url(url))
    }

    func data(for url: URL) -> Data? {
        cache.data(for: .url(url))
    }

    func contains(_ url: URL) -> Bool {
        cache.containsData(for: .url(url))
    }
}

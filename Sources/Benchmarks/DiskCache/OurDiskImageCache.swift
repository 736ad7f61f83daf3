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

    func key(for url: URL) -> ImageRequest {
        .url(url)
    }

    func store(_ data: Data, for request: ImageRequest) {
        cache.storeData(data, for: request)
    }

    func data(for request: ImageRequest) -> Data? {
        cache.data(for: request)
    }

    func contains(_ request: ImageRequest) -> Bool {
        cache.containsData(for: request)
    }
}

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
        let request = ImageRequest.url(url)
        // A request names its entry (a SHA-256 of the URL) on its first disk lookup and keeps the
        // name; asking now makes the key whole beforehand, as the file-per-key candidate's key is
        // its file's name.
        _ = cache.containsData(for: request)
        return request
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

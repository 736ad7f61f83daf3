import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// Foundation's `URLCache` with a disk capacity and no memory capacity, used directly (store and
/// look up responses), as an app without a library would keep downloaded images.
struct FoundationURLCache: DiskCacheCandidate {
    static let name = "Foundation URLCache (disk)"
    private let cache: URLCache

    init(directory: URL) throws {
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        cache = URLCache(memoryCapacity: 0, diskCapacity: DiskCacheBenchmark.sizeLimit, diskPath: directory.path)
        // URLCache loads lazily; a first lookup makes the open complete.
        blackHole(cache.cachedResponse(for: URLRequest(url: URL(fileURLWithPath: "/"))))
    }

    func store(_ data: Data, for url: URL) {
        guard
            let response = HTTPURLResponse(
                url: url, statusCode: 200, httpVersion: "HTTP/1.1",
                headerFields: ["Content-Length": String(data.count), "Cache-Control": "max-age=604800"])
        else { return }
        cache.storeCachedResponse(CachedURLResponse(response: response, data: data), for: URLRequest(url: url))
    }

    func data(for url: URL) -> Data? {
        cache.cachedResponse(for: URLRequest(url: url))?.data
    }

    func contains(_ url: URL) -> Bool {
        cache.cachedResponse(for: URLRequest(url: url)) != nil
    }
}

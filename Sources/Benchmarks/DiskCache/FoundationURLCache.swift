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

    func key(for url: URL) -> URLRequest {
        URLRequest(url: url)
    }

    func store(_ data: Data, for request: URLRequest) {
        guard let url = request.url,
            let response = HTTPURLResponse(
                url: url, statusCode: 200, httpVersion: "HTTP/1.1",
                headerFields: ["Content-Length": String(data.count), "Cache-Control": "max-age=604800"])
        else { return }
        cache.storeCachedResponse(CachedURLResponse(response: response, data: data), for: request)
    }

    func data(for request: URLRequest) -> Data? {
        cache.cachedResponse(for: request)?.data
    }

    func contains(_ request: URLRequest) -> Bool {
        cache.cachedResponse(for: request) != nil
    }
}

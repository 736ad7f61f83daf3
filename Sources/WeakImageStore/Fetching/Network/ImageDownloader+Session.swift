import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

extension ImageDownloader {
    /// A copy of `configuration` without caching or cookies.
    ///
    /// On Linux `URLCache` never stores a response yet answers lookups with a key that ignores
    /// the query, and costs milliseconds per request; the store's caches do the caching. Cookies
    /// would make image responses depend on what else the app fetched.
    static func sessionConfiguration(from configuration: URLSessionConfiguration) -> URLSessionConfiguration {
        let copy = configuration.copy() as? URLSessionConfiguration ?? .ephemeral
        copy.urlCache = nil
        copy.requestCachePolicy = .reloadIgnoringLocalCacheData
        copy.httpCookieStorage = nil
        copy.httpShouldSetCookies = false
        return copy
    }

    /// A session whose events arrive on a serial queue of its own, one at a time, which the
    /// delegate relies on.
    static func makeSession(
        _ configuration: URLSessionConfiguration, delegate: DownloadSessionDelegate
    ) -> URLSession {
        let queue = OperationQueue()
        queue.name = "WeakImageStore.ImageDownloader"
        queue.maxConcurrentOperationCount = 1
        return URLSession(configuration: configuration, delegate: delegate, delegateQueue: queue)
    }

    /// A fresh folder under the system's temporary directory, for one downloader's bodies.
    static func makeTemporaryDirectoryURL() -> URL {
        FileManager.default.temporaryDirectory
            .appendingPathComponent("WeakImageStore-downloads-\(UUID().uuidString)", isDirectory: true)
    }
}

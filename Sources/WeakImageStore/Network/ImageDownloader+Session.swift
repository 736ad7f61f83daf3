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

    /// A session whose events arrive on `queue`, one at a time, which the delegate relies on.
    ///
    /// - Parameter queue: A private serial queue. Without one, an `OperationQueue` in
    ///   swift-corelibs-foundation runs its operations on a queue it makes for itself, which
    ///   libdispatch may serve from the global pool's workers, shared on Linux with Swift's
    ///   cooperative pool.
    static func makeSession(
        _ configuration: URLSessionConfiguration, delegate: DownloadSessionDelegate, queue: DispatchQueue
    ) -> URLSession {
        let operations = OperationQueue()
        operations.name = "WeakImageStore.ImageDownloader"
        operations.maxConcurrentOperationCount = 1
        operations.underlyingQueue = queue
        return URLSession(configuration: configuration, delegate: delegate, delegateQueue: operations)
    }

    /// A fresh folder under the system's temporary directory, for one downloader's bodies.
    static func makeTemporaryDirectoryURL() -> URL {
        FileManager.default.temporaryDirectory
            .appendingPathComponent("WeakImageStore-downloads-\(UUID().uuidString)", isDirectory: true)
    }
}

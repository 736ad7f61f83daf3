import Dispatch
import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// A synchronous GET, as `NSData(contentsOf:)` is: the calling thread waits for the whole body.
enum BlockingFetch {
    /// The body of a 200 response to `url`, or nil.
    static func data(_ url: URL, session: URLSession) -> Data? {
        let body = LockedBox<Data?>(nil)
        let done = DispatchSemaphore(value: 0)
        session.dataTask(with: url) { data, response, error in
            if error == nil, (response as? HTTPURLResponse)?.statusCode == 200 { body.value = data }
            done.signal()
        }.resume()
        done.wait()
        return body.value
    }

    /// An ephemeral session without `URLCache`, at most 6 connections to the server.
    static func makeSession() -> URLSession {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.httpMaximumConnectionsPerHost = 6
        return URLSession(configuration: configuration)
    }
}

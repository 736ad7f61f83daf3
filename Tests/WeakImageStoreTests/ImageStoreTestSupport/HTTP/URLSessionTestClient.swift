import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// URLSession configured as the library's network source will be (no `URLCache`: on Linux it
/// caches wrongly and slowly), with a synchronous fetch for tests.
final class URLSessionTestClient {
    /// What a fetch ended with.
    struct Fetched {
        let response: HTTPURLResponse?
        let body: Data
        let error: URLError?

        var status: Int? { response?.statusCode }

        func header(_ name: String) -> String? {
            response?.value(forHTTPHeaderField: name)
        }
    }

    let session: URLSession

    init() {
        let configuration = URLSessionConfiguration.ephemeral
        configuration.urlCache = nil
        configuration.requestCachePolicy = .reloadIgnoringLocalCacheData
        configuration.timeoutIntervalForRequest = 10
        session = URLSession(configuration: configuration)
    }

    deinit {
        session.invalidateAndCancel()
    }

    /// Fetches `url` and waits for the outcome.
    ///
    /// - Parameters:
    ///   - method: Defaults to GET.
    ///   - headers: Request header fields. Defaults to none.
    func fetch(_ url: URL, method: String = "GET", headers: [String: String] = [:]) -> Fetched {
        let outcome = Outcome()
        let task = session.dataTask(with: request(url, method: method, headers: headers)) { data, response, error in
            outcome.set(
                Fetched(response: response as? HTTPURLResponse, body: data ?? Data(), error: error as? URLError))
        }
        task.resume()
        return outcome.wait(timeout: 15)
            ?? Fetched(response: nil, body: Data(), error: URLError(.timedOut))
    }

    /// Starts fetching `url` and returns the task, for tests that cancel it; `completion` gets the
    /// outcome.
    func start(_ url: URL, completion: @escaping @Sendable (Fetched) -> Void = { _ in }) -> URLSessionDataTask {
        let task = session.dataTask(with: request(url, method: "GET", headers: [:])) { data, response, error in
            completion(Fetched(response: response as? HTTPURLResponse, body: data ?? Data(), error: error as? URLError))
        }
        task.resume()
        return task
    }

    private func request(_ url: URL, method: String, headers: [String: String]) -> URLRequest {
        var request = URLRequest(url: url)
        request.httpMethod = method
        for (name, value) in headers { request.setValue(value, forHTTPHeaderField: name) }
        return request
    }

    /// A value one thread sets and another waits for.
    private final class Outcome: @unchecked Sendable {
        private let condition = NSCondition()
        private var value: Fetched?

        func set(_ newValue: Fetched) {
            condition.lock()
            value = newValue
            condition.broadcast()
            condition.unlock()
        }

        func wait(timeout: Double) -> Fetched? {
            let deadline = Date(timeIntervalSinceNow: timeout)
            condition.lock()
            defer { condition.unlock() }
            while value == nil && condition.wait(until: deadline) {}
            return value
        }
    }
}

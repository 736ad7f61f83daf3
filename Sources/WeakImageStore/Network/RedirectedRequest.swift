import Foundation

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The request a transfer sends after a redirect, built so that what the app's request modifier
/// set for one origin (`Authorization`, an API key) never reaches another: Foundation on Linux
/// copies every header field to the new host.
///
/// | redirect | request sent |
/// |---|---|
/// | to the same origin (scheme, host and port) | Foundation's: every field kept, as before |
/// | to another origin | a fresh `GET` of the new URL, with the downloader's own fields, then the request modifier run again on it (it sees the new URL and decides what that origin gets) |
///
/// The downloader's own fields (`If-None-Match`, `If-Modified-Since`, `Range`, `If-Range`)
/// survive a redirect to another origin: they name the bytes the downloader holds, which came
/// from the redirect's target the last time, and they are no secret of the app's. Dropping them
/// would download a whole body again at every revalidation through a CDN's redirect.
enum RedirectedRequest {
    /// `scheme://host:port`, lowercased, the port written out; nil for a URL without a host.
    static func origin(of url: URL?) -> String? {
        guard let url, let scheme = url.scheme?.lowercased(), let host = url.host?.lowercased() else { return nil }
        let port = url.port ?? (scheme == "https" ? 443 : scheme == "http" ? 80 : -1)
        return "\(scheme)://\(host):\(port)"
    }

    /// The request to send to `proposed.url`.
    ///
    /// - Parameters:
    ///   - proposed: The request Foundation would send.
    ///   - source: The URL that answered with the redirect.
    ///   - ownFields: The downloader's own header fields of this transfer.
    ///   - timeout: The request timeout.
    ///   - modifier: The app's request modifier.
    static func request(
        following proposed: URLRequest, from source: URL?, ownFields: [String: String], timeout: TimeInterval,
        modifier: (@Sendable (inout URLRequest) -> Void)?
    ) -> URLRequest {
        guard let target = proposed.url else { return proposed }
        if let origin = origin(of: source), origin == self.origin(of: target) { return proposed }
        var request = URLRequest(url: target, cachePolicy: .reloadIgnoringLocalCacheData, timeoutInterval: timeout)
        modifier?(&request)
        apply(ownFields, to: &request)
        return request
    }

    /// Sets `fields` on `request`, over whatever the modifier set: the response is read by what
    /// these fields asked for.
    static func apply(_ fields: [String: String], to request: inout URLRequest) {
        for (name, value) in fields.sorted(by: { $0.key < $1.key }) {
            request.setValue(value, forHTTPHeaderField: name)
        }
    }
}

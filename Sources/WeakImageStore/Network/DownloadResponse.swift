import Foundation

/// What a transfer delivers: the body, or the server's word that the copy the caller holds is
/// still good, with what the cache needs to compute the response's freshness.
struct DownloadResponse: Sendable {
    /// The answer's substance.
    enum Content: Sendable {
        /// A 2xx response's whole, checked body.
        case body(Data)
        /// `304 Not Modified` to a conditional request: the caller's stored body is still current.
        case notModified
    }

    let content: Content
    /// The final response's header fields, names lowercased; the values of names that differed
    /// only in case are joined with ", ".
    let headers: [String: String]
    /// Seconds since 1970 when the request was sent.
    let requestTime: Double
    /// Seconds since 1970 when the response's headers arrived.
    let responseTime: Double

    /// The body, or nil for ``Content/notModified``.
    var body: Data? {
        if case .body(let data) = content { data } else { nil }
    }
}

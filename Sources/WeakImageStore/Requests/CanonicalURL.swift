import Foundation

/// The one spelling of a URL that its identity uses, so spellings a server cannot tell apart share
/// one image (RFC 3986 §6.2.3, scheme-based normalization):
///
/// | URL | canonical |
/// |---|---|
/// | `HTTPS://Example.COM:443/a.png#top` | `https://example.com/a.png` |
/// | `http://example.com` | `http://example.com/` |
/// | `http://example.com:8080/a?w=10` | `http://example.com:8080/a?w=10` |
///
/// The query is kept (it usually selects the picture); the path keeps its case and encoding.
enum CanonicalURL {
    /// The canonical form of `url`; `url.absoluteString` when it cannot be taken apart.
    static func string(for url: URL) -> String {
        guard var components = URLComponents(url: url, resolvingAgainstBaseURL: true) else {
            return url.absoluteString
        }
        let scheme = components.scheme?.lowercased()
        components.scheme = scheme
        components.percentEncodedHost = components.percentEncodedHost?.lowercased()
        components.fragment = nil
        if let port = components.port, port == defaultPort(of: scheme) {
            components.port = nil
        }
        if components.percentEncodedPath.isEmpty, components.host != nil {
            components.percentEncodedPath = "/"
        }
        return components.string ?? url.absoluteString
    }

    private static func defaultPort(of scheme: String?) -> Int? {
        switch scheme {
        case "http": 80
        case "https": 443
        default: nil
        }
    }
}

import Foundation

/// A network URL inside a request, with its identity: the canonical URL, or the caller's cache
/// key when there is one. Equal when the identities are.
///
/// A class, so a request carrying a URL stays as small as one carrying a name.
final class URLSource: Hashable, Sendable {
    let url: URL
    let identity: SourceIdentity
    /// Whether the store can download it: http and https only.
    let isDownloadable: Bool
    /// The name of its entry in a ``DiskImageCache``, computed once here so that a disk lookup
    /// costs a table probe, not a hash of the URL.
    let diskCacheDigest: SHA256Digest

    init(_ url: URL, cacheKey: String?) {
        self.url = url
        identity = cacheKey.map { .cacheKey($0) } ?? .url(CanonicalURL.string(for: url))
        let scheme = url.scheme?.lowercased()
        isDownloadable = scheme == "http" || scheme == "https"
        diskCacheDigest = DiskImageCache.digest(of: identity)
    }

    /// The full-size request for this URL: what errors name.
    var request: ImageRequest {
        ImageRequest(source: .url(self), maxPixelSize: nil)
    }

    static func == (lhs: URLSource, rhs: URLSource) -> Bool {
        lhs.identity == rhs.identity
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(identity)
    }
}

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
    /// The name of its entry in a ``DiskImageCache``, once the disk was asked.
    private let digest = Lock<SHA256Digest?>(nil)

    /// Every `.url` request makes one, a memory hit included, so this does only what the
    /// identity needs; the disk cache entry's name, a SHA-256 about as costly as the rest, waits
    /// for ``diskCacheDigest``.
    init(_ url: URL, cacheKey: String?) {
        self.url = url
        identity = cacheKey.map { .cacheKey($0) } ?? .url(CanonicalURL.string(for: url))
        isDownloadable = CanonicalURL.hasHTTPScheme(url.absoluteString)
    }

    /// The name of its entry in a ``DiskImageCache``: computed on the first disk lookup, then
    /// kept, so that the disk lookups of one request (the store's, or an app's repeated
    /// ``DiskImageCache/data(for:)``) cost a table probe, not a hash of the URL each.
    var diskCacheDigest: SHA256Digest {
        digest.withLock { known in
            if let known { return known }
            let computed = DiskImageCache.digest(of: identity)
            known = computed
            return computed
        }
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

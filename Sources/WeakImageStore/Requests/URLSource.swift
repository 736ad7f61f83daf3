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
    /// The name of its entry in a ``DiskImageCache``, once the disk was asked; guarded by
    /// ``digestLock``.
    nonisolated(unsafe) private var knownDigest: SHA256Digest?
    /// One lock for every URL's digest rather than one each: a lock is three allocations, which
    /// every `.url` request, a memory hit included, would pay for a value only disk lookups read.
    private static let digestLock = Lock(())

    /// Every `.url` request makes one, a memory hit included, so this does only what the
    /// identity needs; the disk cache entry's name, a SHA-256 about as costly as the rest, waits
    /// for ``diskCacheDigest``.
    ///
    /// - Parameters:
    ///   - url: The URL.
    ///   - absoluteString: `url.absoluteString`, when the caller has read it already.
    ///   - cacheKey: The caller's name for the picture, replacing the URL in its identity.
    init(_ url: URL, absoluteString: String? = nil, cacheKey: String?) {
        self.url = url
        let absolute = absoluteString ?? url.absoluteString
        identity = cacheKey.map { .cacheKey($0) } ?? .url(CanonicalURL.string(for: url, absoluteString: absolute))
        isDownloadable = CanonicalURL.hasHTTPScheme(absolute)
    }

    /// The name of its entry in a ``DiskImageCache``: computed on the first disk lookup, then
    /// kept, so that the disk lookups of one request (the store's, or an app's repeated
    /// ``DiskImageCache/data(for:)``) cost a table probe, not a hash of the URL each.
    var diskCacheDigest: SHA256Digest {
        if let known = Self.digestLock.withLock({ _ in knownDigest }) { return known }
        // Outside the lock: two threads may both compute it, and store the same value.
        let computed = DiskImageCache.digest(of: identity)
        Self.digestLock.withLock { _ in knownDigest = computed }
        return computed
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

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
    /// The digest of ``identity`` once something asked for it; guarded by ``digestLock``.
    nonisolated(unsafe) private var knownDigest: SHA256Digest?
    /// One lock for every URL's digest rather than one each: every `.url` request makes a
    /// URLSource, a memory hit included, and would pay for a lock only disk lookups use.
    private static let digestLock = Lock(())

    /// Every `.url` request makes one, a memory hit included, so this does only what the
    /// identity needs.
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

    /// The digest of ``identity`` that `digest` makes, computed on the first call and then kept,
    /// so that the repeated lookups of one request hash its URL once. Its one caller, the disk
    /// cache, always passes the same function (its entries' names).
    func memoizedDigest(_ digest: (SourceIdentity) -> SHA256Digest) -> SHA256Digest {
        if let known = Self.digestLock.withLock({ _ in knownDigest }) { return known }
        // Outside the lock: two threads may both compute it, and store the same value.
        let computed = digest(identity)
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

extension DiskImageCache {
    /// The URL whose bytes `request` names, or nil when they are never stored.
    static func storedSource(of request: ImageRequest) -> URLSource? {
        guard case .url(let source) = request.source, source.isDownloadable else { return nil }
        return source
    }

    /// The identity under which `request`'s bytes are stored, or nil when they never are.
    static func storedIdentity(of request: ImageRequest) -> SourceIdentity? {
        storedSource(of: request)?.identity
    }

    /// The name of `source`'s entry, the digest of its identity: hashed on
    /// the source's first disk lookup and kept by it, so that the disk lookups of one request
    /// (the store's, or an app's repeated ``data(for:)``) cost a table probe, not a hash each.
    static func digest(of source: URLSource) -> SHA256Digest {
        source.memoizedDigest(digest(of:))
    }

    /// The entry's name: the SHA-256 of the identity's kind, a line feed and its value, which no
    /// other identity spells (kind names contain no line feed).
    static func digest(of identity: SourceIdentity) -> SHA256Digest {
        var prefix: String
        switch identity.kind {
        case .file: prefix = "file\n"
        case .url: prefix = "url\n"
        case .cacheKey: prefix = "cacheKey\n"
        case .provider: prefix = "provider\n"
        }
        var value = identity.value
        var hasher = SHA256()
        prefix.withUTF8 { hasher.update(UnsafeRawBufferPointer($0)) }
        value.withUTF8 { hasher.update(UnsafeRawBufferPointer($0)) }
        return hasher.finalize()
    }
}

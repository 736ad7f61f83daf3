/// Who an image's bytes are, however a request reached them: a file by its real path, a URL by
/// its canonical form (or the caller's cache key), a data provider by its identity and version.
///
/// The engine keys images by it and never looks inside. One string and a few words, so copying
/// and comparing it on the hit path stays as cheap as it was for a path; the hash is computed
/// once, because the identity is hashed on every hit.
struct SourceIdentity: Hashable, Sendable, CustomStringConvertible {
    /// Which kind of source; each kind is a namespace of its own.
    enum Kind: UInt8, Sendable {
        /// A file, by its canonical absolute path (symbolic links resolved).
        case file
        /// A network image, by its canonical URL (see ``CanonicalURL``).
        case url
        /// A network image the caller named with a cache key, which replaces its URL.
        case cacheKey
        /// An app's data provider: equal identity and version promise identical bytes.
        case provider
    }

    let kind: Kind
    /// The source's own notion of sameness: the real path, canonical URL or cache key; for a
    /// provider its identity and version, joined unambiguously (see ``provider(identity:version:)``).
    let value: String
    /// The scale the image is decoded at: a file's `@2x` suffix, else 1.
    let scale: Int
    private let precomputedHash: Int

    private init(_ kind: Kind, _ value: String, scale: Int) {
        var hasher = Hasher()
        hasher.combine(kind)
        hasher.combine(value)
        hasher.combine(scale)
        self.init(kind, value, scale: scale, hash: hasher.finalize())
    }

    /// An identity whose hash is known already: one an ``ImageKey`` took apart.
    init(_ kind: Kind, _ value: String, scale: Int, hash: Int) {
        self.kind = kind
        self.value = value
        self.scale = scale
        precomputedHash = hash
    }

    /// The hash computed when the identity was made.
    var hashValueComputedOnce: Int { precomputedHash }

    /// The file at `realPath`, a canonical absolute path.
    static func file(realPath: String, scale: Int) -> SourceIdentity {
        SourceIdentity(.file, realPath, scale: scale)
    }

    /// A network image known by its canonical URL.
    static func url(_ canonicalURL: String) -> SourceIdentity {
        SourceIdentity(.url, canonicalURL, scale: 1)
    }

    /// A network image known by the caller's cache key.
    static func cacheKey(_ key: String) -> SourceIdentity {
        SourceIdentity(.cacheKey, key, scale: 1)
    }

    /// A data provider's bytes. The identity's length leads, so no identity and version pair can
    /// spell another's (`"a:b" + "c"` is not `"a" + ":bc"`).
    static func provider(identity: String, version: String) -> SourceIdentity {
        SourceIdentity(.provider, "\(identity.utf8.count):\(identity)\(version)", scale: 1)
    }

    static func == (lhs: SourceIdentity, rhs: SourceIdentity) -> Bool {
        lhs.precomputedHash == rhs.precomputedHash && lhs.kind.rawValue == rhs.kind.rawValue && lhs.scale == rhs.scale
            && lhs.value == rhs.value
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(precomputedHash)
    }

    var description: String {
        switch kind {
        case .file: scale == 1 ? value : "\(value) @\(scale)x"
        case .url: value
        case .cacheKey: "cache key \(value.debugDescription)"
        case .provider: "provider \(value.debugDescription)"
        }
    }
}

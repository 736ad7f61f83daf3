/// Who an image's bytes are, however a request reached them: a file by its real path, a URL by
/// its canonical form (or the caller's cache key), a data provider by its identity and version.
///
/// The engine keys images by it and never looks inside. The hash is computed once, because the
/// identity is hashed on every hit.
struct SourceIdentity: Hashable, Sendable, CustomStringConvertible {
    /// The source's own notion of sameness; each kind is a namespace of its own.
    enum Origin: Hashable, Sendable {
        /// A file, by its canonical absolute path (symbolic links resolved).
        case file(realPath: String)
        /// A network image, by its canonical URL (see ``CanonicalURL``).
        case url(String)
        /// A network image the caller named with a cache key, which replaces its URL.
        case cacheKey(String)
        /// An app's data provider: equal identity and version promise identical bytes.
        case provider(identity: String, version: String)
    }

    let origin: Origin
    /// The scale the image is decoded at: a file's `@2x` suffix, else 1.
    let scale: Int
    private let precomputedHash: Int

    init(_ origin: Origin, scale: Int = 1) {
        self.origin = origin
        self.scale = scale
        var hasher = Hasher()
        hasher.combine(origin)
        hasher.combine(scale)
        precomputedHash = hasher.finalize()
    }

    static func == (lhs: SourceIdentity, rhs: SourceIdentity) -> Bool {
        lhs.precomputedHash == rhs.precomputedHash && lhs.scale == rhs.scale && lhs.origin == rhs.origin
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(precomputedHash)
    }

    var description: String {
        let scaleSuffix = scale == 1 ? "" : " @\(scale)x"
        return switch origin {
        case .file(let realPath): "\(realPath)\(scaleSuffix)"
        case .url(let url): "\(url)\(scaleSuffix)"
        case .cacheKey(let key): "cache key \(key.debugDescription)\(scaleSuffix)"
        case .provider(let identity, let version):
            "provider \(identity.debugDescription) version \(version.debugDescription)"
        }
    }
}

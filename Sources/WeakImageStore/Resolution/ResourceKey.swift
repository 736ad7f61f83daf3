/// The identity of a decoded image: the file's real path (symbolic links resolved) and its scale.
///
/// `"icon"`, `"icon.png"`, `"icon@2x"` and the path of `icon@2x.png` all resolve to one key, so
/// they share one instance. The hash is computed once, because the key is hashed on every hit.
struct ResourceKey: Hashable, Sendable, CustomStringConvertible {
    /// The canonical absolute path of the file.
    let path: String
    /// The scale of the file: 2 for `icon@2x.png`, 1 for `icon.png`.
    let scale: Int
    private let precomputedHash: Int

    init(path: String, scale: Int) {
        self.path = path
        self.scale = scale
        var hasher = Hasher()
        hasher.combine(path)
        hasher.combine(scale)
        precomputedHash = hasher.finalize()
    }

    static func == (lhs: ResourceKey, rhs: ResourceKey) -> Bool {
        lhs.precomputedHash == rhs.precomputedHash && lhs.scale == rhs.scale && lhs.path == rhs.path
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(precomputedHash)
    }

    var description: String { "\(path) @\(scale)x" }
}

/// The identity of a decoded image: the file's real path (symbolic links resolved) and its scale.
///
/// `"icon"`, `"icon.png"`, `"icon@2x"` and the path of `icon@2x.png` all resolve to one key, so
/// they share one instance. The hash is computed once, because the key is hashed on every hit.
/// ``root`` is not part of the identity: one file is one image however it was found.
struct ResourceKey: Hashable, Sendable, CustomStringConvertible {
    /// The canonical absolute path of the file.
    let path: String
    /// The scale of the file: 2 for `icon@2x.png`, 1 for `icon.png`.
    let scale: Int
    /// The canonical folder the file is read beneath, following no symbolic link below it (see
    /// ``ConfinedFileOpener``): the store directory a name was found in, or `/` for a path given
    /// to `image(contentsOfFile:)`.
    let root: String
    private let precomputedHash: Int

    init(path: String, scale: Int, root: String = "/") {
        self.path = path
        self.scale = scale
        self.root = root
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

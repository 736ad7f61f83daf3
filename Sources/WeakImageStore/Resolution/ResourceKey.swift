/// The identity of a decoded image: the file's real path (symbolic links resolved), its scale,
/// and the size it is decoded at.
///
/// `"icon"`, `"icon.png"`, `"icon@2x"` and the path of `icon@2x.png` all resolve to one key, so
/// they share one instance. A thumbnail of the file is another key, one per output size; a
/// thumbnail at least as large as the image is the full-size key itself. The hash is computed
/// once, because the key is hashed on every hit. ``root`` is not part of the identity: one file
/// is one image however it was found.
struct ResourceKey: Hashable, Sendable, CustomStringConvertible {
    /// The canonical absolute path of the file.
    let path: String
    /// The scale of the file: 2 for `icon@2x.png`, 1 for `icon.png`.
    let scale: Int
    /// The longest side of a reduced decode, in pixels; 0 for the full-size image. Always less
    /// than the image's longest side, so each output size has exactly one key.
    let maxPixelSize: Int
    /// The canonical folder the file is read beneath, following no symbolic link below it (see
    /// ``ConfinedFileOpener``): the store directory a name was found in, or `/` for a path given
    /// to `image(contentsOfFile:)`.
    let root: String
    private let precomputedHash: Int

    init(path: String, scale: Int, maxPixelSize: Int = 0, root: String = "/") {
        self.path = path
        self.scale = scale
        self.maxPixelSize = maxPixelSize
        self.root = root
        var hasher = Hasher()
        hasher.combine(path)
        hasher.combine(scale)
        hasher.combine(maxPixelSize)
        precomputedHash = hasher.finalize()
    }

    /// Whether this is the full-size image of its file.
    var isFullSize: Bool { maxPixelSize == 0 }

    /// The key of this file decoded at `maxPixelSize` when it is `width` × `height` pixels: the
    /// full-size key when the thumbnail would not be smaller than the image, or when the size is
    /// unknown (a decoder that cannot read it cannot make thumbnails either).
    func reduced(to maxPixelSize: Int, imageSize: (width: Int, height: Int)?) -> ResourceKey {
        guard let imageSize, maxPixelSize < max(imageSize.width, imageSize.height) else {
            return ResourceKey(path: path, scale: scale, root: root)
        }
        return ResourceKey(path: path, scale: scale, maxPixelSize: maxPixelSize, root: root)
    }

    static func == (lhs: ResourceKey, rhs: ResourceKey) -> Bool {
        lhs.precomputedHash == rhs.precomputedHash && lhs.scale == rhs.scale
            && lhs.maxPixelSize == rhs.maxPixelSize && lhs.path == rhs.path
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(precomputedHash)
    }

    var description: String {
        isFullSize ? "\(path) @\(scale)x" : "\(path) @\(scale)x at \(maxPixelSize) px"
    }
}

/// The identity of a decoded image: its source's identity and the size it is decoded at.
///
/// `"icon"`, `"icon.png"`, `"icon@2x"`, the path of `icon@2x.png` and its `file:` URL all resolve
/// to one key, so they share one instance. A thumbnail is another key, one per output size; a
/// thumbnail at least as large as the image is the full-size key itself. The hash is computed
/// once, because the key is hashed on every hit.
struct ImageKey: Hashable, Sendable, CustomStringConvertible {
    /// Whose bytes the image is decoded from.
    let source: SourceIdentity
    /// The longest side of a reduced decode, in pixels; nil for the full-size image. Always less
    /// than the image's longest side, so each output size has exactly one key.
    let maxPixelSize: Int?
    private let precomputedHash: Int

    init(source: SourceIdentity, maxPixelSize: Int? = nil) {
        self.source = source
        self.maxPixelSize = maxPixelSize
        var hasher = Hasher()
        hasher.combine(source)
        hasher.combine(maxPixelSize)
        precomputedHash = hasher.finalize()
    }

    /// The scale recorded in the decoded image.
    var scale: Int { source.scale }

    static func == (lhs: ImageKey, rhs: ImageKey) -> Bool {
        lhs.precomputedHash == rhs.precomputedHash && lhs.maxPixelSize == rhs.maxPixelSize && lhs.source == rhs.source
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(precomputedHash)
    }

    var description: String {
        guard let maxPixelSize else { return source.description }
        return "\(source) at \(maxPixelSize) px"
    }
}

/// The identity of a decoded image: its source's identity and the size it is decoded at.
///
/// `"icon"`, `"icon.png"`, `"icon@2x"`, the path of `icon@2x.png` and its `file:` URL all resolve
/// to one key, so they share one instance. A thumbnail is another key, one per output size; a
/// thumbnail at least as large as the image is the full-size key itself.
///
/// The source's fields are stored flat, not as a nested ``SourceIdentity``: comparing a nested
/// struct in place made the compiler copy the whole key (a retain and a release) on every hit.
/// The hash is computed once, because the key is hashed on every hit.
struct ImageKey: Hashable, Sendable, CustomStringConvertible {
    private let kind: SourceIdentity.Kind
    private let value: String
    /// The scale recorded in the decoded image.
    let scale: Int
    /// ``maxPixelSize``, with 0 for the full-size image: comparing an optional in place made the
    /// compiler copy the key, like a nested struct.
    private let reducedSide: Int
    private let sourceHash: Int
    private let precomputedHash: Int

    init(source: SourceIdentity, maxPixelSize: Int? = nil) {
        kind = source.kind
        value = source.value
        scale = source.scale
        sourceHash = source.hashValueComputedOnce
        precondition(maxPixelSize.map { $0 >= 1 } ?? true, "maxPixelSize must be at least 1")
        reducedSide = maxPixelSize ?? 0
        // A full-size key takes its source's hash, so a hit by URL or provider (whose key is
        // made per request) hashes its identity once, not twice.
        guard reducedSide != 0 else {
            precomputedHash = sourceHash
            return
        }
        var hasher = Hasher()
        hasher.combine(sourceHash)
        hasher.combine(reducedSide)
        precomputedHash = hasher.finalize()
    }

    /// The longest side of a reduced decode, in pixels; nil for the full-size image. Always less
    /// than the image's longest side, so each output size has exactly one key.
    var maxPixelSize: Int? { reducedSide == 0 ? nil : reducedSide }

    /// Whose bytes the image is decoded from.
    var source: SourceIdentity {
        SourceIdentity(kind, value, scale: scale, hash: sourceHash)
    }

    static func == (lhs: ImageKey, rhs: ImageKey) -> Bool {
        lhs.precomputedHash == rhs.precomputedHash && lhs.reducedSide == rhs.reducedSide
            && lhs.kind.rawValue == rhs.kind.rawValue
            && lhs.scale == rhs.scale && lhs.value == rhs.value
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(precomputedHash)
    }

    var description: String {
        guard let maxPixelSize else { return source.description }
        return "\(source) at \(maxPixelSize) px"
    }
}

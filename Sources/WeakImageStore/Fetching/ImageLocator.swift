/// An image to produce: which image it is (its key) and where its bytes come from.
///
/// What a request resolves to, and what a load runs. Equal when the keys are: one key is one
/// image however its bytes were reached (a file found by name or by path reads the same bytes).
struct ImageLocator: Hashable, Sendable, CustomStringConvertible {
    let key: ImageKey
    let bytes: ByteLocation

    /// The full-size image of `identity`.
    init(_ identity: SourceIdentity, bytes: ByteLocation) {
        key = ImageKey(source: identity)
        self.bytes = bytes
    }

    private init(key: ImageKey, bytes: ByteLocation) {
        self.key = key
        self.bytes = bytes
    }

    /// This full-size image decoded at `maxPixelSize` when it is `imageSize`: the full-size image
    /// itself when the thumbnail would not be smaller, or when the size is unknown (a decoder
    /// that cannot read it cannot make thumbnails either).
    func reduced(to maxPixelSize: Int, imageSize: PixelSize?) -> ImageLocator {
        guard let imageSize, maxPixelSize < imageSize.longestSide else {
            return ImageLocator(key: ImageKey(source: key.source), bytes: bytes)
        }
        return ImageLocator(key: ImageKey(source: key.source, maxPixelSize: maxPixelSize), bytes: bytes)
    }

    static func == (lhs: ImageLocator, rhs: ImageLocator) -> Bool {
        lhs.key == rhs.key
    }

    func hash(into hasher: inout Hasher) {
        hasher.combine(key)
    }

    var description: String { key.description }
}

/// The pixel sizes of sources, read from their headers when a thumbnail was first asked for, so
/// later thumbnail lookups find their key without fetching the bytes again.
///
/// Bounded like ``ResolutionCache``: reaching ``capacity`` entries starts over.
struct PixelSizeCache: Sendable {
    /// The most sources remembered: 4096.
    static let capacity = 4096

    /// What is known of a source's size.
    enum Entry: Sendable, Equatable {
        case known(PixelSize)
        /// The decoder cannot tell: thumbnails of this source are its full-size image.
        case unknown
    }

    private var sizes: [SourceIdentity: Entry] = [:]

    subscript(source: SourceIdentity) -> Entry? {
        sizes[source]
    }

    mutating func remember(_ size: PixelSize?, for source: SourceIdentity) {
        if sizes.count >= Self.capacity, sizes[source] == nil { sizes.removeAll(keepingCapacity: true) }
        sizes[source] = size.map { .known($0) } ?? .unknown
    }

    mutating func removeAll() {
        sizes.removeAll()
    }
}

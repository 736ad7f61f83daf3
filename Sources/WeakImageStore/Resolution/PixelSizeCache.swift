/// The pixel sizes of files, read from their headers when a thumbnail was first asked for, so
/// later thumbnail lookups find their key without touching the file system.
///
/// Bounded like ``ResolutionCache``: reaching ``capacity`` entries starts over.
struct PixelSizeCache: Sendable {
    /// The most files remembered: 4096.
    static let capacity = 4096

    /// What is known of a file's size.
    enum Entry: Sendable, Equatable {
        case known(width: Int, height: Int)
        /// The decoder cannot tell: thumbnails of this file are its full-size image.
        case unknown
    }

    private var sizes: [String: Entry] = [:]

    subscript(path: String) -> Entry? {
        sizes[path]
    }

    mutating func remember(_ size: (width: Int, height: Int)?, forPath path: String) {
        if sizes.count >= Self.capacity, sizes[path] == nil { sizes.removeAll(keepingCapacity: true) }
        sizes[path] = size.map { .known(width: $0.width, height: $0.height) } ?? .unknown
    }

    mutating func removeAll() {
        sizes.removeAll()
    }
}

extension ResourceKey {
    /// The key of this full-size file at `maxPixelSize`, if its size is known; nil if a header
    /// must be read first.
    func reduced(to maxPixelSize: Int, knownSizes: PixelSizeCache) -> ResourceKey? {
        switch knownSizes[path] {
        case nil: nil
        case .unknown: reduced(to: maxPixelSize, imageSize: nil)
        case .known(let width, let height): reduced(to: maxPixelSize, imageSize: (width, height))
        }
    }
}

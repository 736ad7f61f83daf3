/// The partial bodies an ``ImageDownloader`` keeps for resuming, one per identity, oldest
/// dropped first: at most ``maximumCount`` of them and ``maximumTotalLength`` bytes in all.
///
/// A value kept behind the downloader's lock. It never touches the files: the methods return the
/// partial bodies dropped, whose files the caller deletes after unlocking.
struct PartialBodies: Sendable {
    /// Partial bodies kept at most.
    static let maximumCount = 8

    /// The most bytes kept in all: the downloader's `maximumResponseSize`.
    let maximumTotalLength: Int
    /// Oldest first.
    private(set) var bodies: [PartialBody] = []

    init(maximumTotalLength: Int) {
        self.maximumTotalLength = maximumTotalLength
    }

    /// Bytes kept in all.
    var totalLength: Int {
        bodies.reduce(0) { $0 + $1.length }
    }

    /// Keeps `body`, replacing any other of its identity, and drops the oldest until the limits
    /// hold (`body` itself if it alone is over them).
    ///
    /// - Returns: The partial bodies dropped: delete their files.
    mutating func keep(_ body: PartialBody) -> [PartialBody] {
        var dropped = bodies.filter { $0.identity == body.identity && $0.path != body.path }
        bodies.removeAll { $0.identity == body.identity }
        bodies.append(body)
        var total = totalLength
        while bodies.count > Self.maximumCount || total > maximumTotalLength, !bodies.isEmpty {
            let oldest = bodies.removeFirst()
            total -= oldest.length
            dropped.append(oldest)
        }
        return dropped
    }

    /// Takes out the partial body of `identity`, to continue it.
    mutating func take(_ identity: SourceIdentity) -> PartialBody? {
        guard let index = bodies.firstIndex(where: { $0.identity == identity }) else { return nil }
        return bodies.remove(at: index)
    }

    /// Takes out every partial body: delete their files.
    mutating func removeAll() -> [PartialBody] {
        defer { bodies = [] }
        return bodies
    }
}

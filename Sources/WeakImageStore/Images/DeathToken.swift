/// Identifies one registration of an image with one store, unique within that store.
///
/// A store files each image it hands out under a fresh token, and its weak table remembers the
/// token with the entry. When an image starts dying while another thread loads a new image for
/// the same key, the old image's late report carries the old token, so it cannot remove the new
/// entry.
struct DeathToken: Hashable, Sendable {
    let value: UInt64

    /// The token of an entry whose image cannot report its death; such entries are pruned.
    static let unwatched = DeathToken(value: 0)

    /// Whether the image reports its death.
    var isWatched: Bool { value != 0 }
}

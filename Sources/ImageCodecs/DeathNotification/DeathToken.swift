/// Identifies one registration of an image with one store, unique within that store.
///
/// A store files each image it hands out under a fresh token, and its weak table remembers the
/// token with the entry. When an image starts dying while another thread loads a new image for
/// the same key, the old image's late report carries the old token, so it cannot remove the new
/// entry.
package struct DeathToken: Hashable, Sendable {
    let value: UInt64

    package init(value: UInt64) {
        self.value = value
    }

    /// The token of an entry whose image cannot report its death; such entries are pruned.
    package static let unwatched = DeathToken(value: 0)

    /// Whether the image reports its death.
    package var isWatched: Bool { value != 0 }
}

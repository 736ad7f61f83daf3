/// Where a key was last found in a storage's slot arrays, remembered with its resolution so the
/// next hit can go straight to the slot instead of hashing the key again.
///
/// A hint is only ever a guess: storages check that the slot still holds the key (a cheap
/// comparison, the path strings usually share storage) and fall back to hashing when it does not.
struct SlotHint: Sendable, Equatable {
    /// The slot in the weak table, or -1.
    var weak = -1
    /// The slot in the LRU, or -1.
    var strong = -1
}

/// A resolved file: its canonical path, and the canonical folder it is read beneath without
/// following a symbolic link below it (see ``ConfinedFileOpener``) — the store directory a name
/// was found in, or `/` for a path the caller gave.
///
/// The root is not part of any identity: one file is one image however it was found.
struct FileLocation: Sendable, Equatable {
    let path: String
    let root: String

    init(path: String, root: String = "/") {
        self.path = path
        self.root = root
    }
}

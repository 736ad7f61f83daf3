/// A file's identity, to notice that a path names another file than the one held open.
struct FileIdentity: Equatable, Sendable {
    let device: UInt64
    let inode: UInt64
}

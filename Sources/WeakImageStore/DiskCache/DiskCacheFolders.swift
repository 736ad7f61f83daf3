#if canImport(Darwin)
import Darwin
#elseif canImport(Glibc)
import Glibc
#elseif canImport(Musl)
import Musl
#endif

/// The disk cache's folder and its `bodies` folder, kept open: every entry below them is reached
/// relative to these descriptors with `O_NOFOLLOW`, so a symbolic link in the folder is never
/// followed (see ``DiskCacheFileSystem/openFolder(_:in:creating:)``).
///
/// When the folder's path comes to name another folder (the folder was deleted, and re-created
/// by another process or by ``refreshed()``), the next journal transaction opens the new one,
/// checking it as the first.
final class DiskCacheFolders: Sendable {
    private struct State {
        var root: OpenDirectory
        var bodies: OpenDirectory
        /// Bit n set: `bodies/<n in two hex digits>` was found a folder of the user, not a link.
        var verifiedBodyFolders: [UInt64] = [0, 0, 0, 0]
    }

    let layout: DiskCacheLayout
    let fileSystem: DiskCacheFileSystem
    private let state: Lock<State>

    /// Opens (creating them when missing) the cache's folder and its `bodies` folder.
    ///
    /// - Throws: Why the folder is not trusted or cannot be made.
    init(layout: DiskCacheLayout, fileSystem: DiskCacheFileSystem) throws(DiskCacheFolderProblem) {
        self.layout = layout
        self.fileSystem = fileSystem
        switch Self.open(layout: layout, fileSystem: fileSystem) {
        case .success(let (root, bodies)): state = Lock(State(root: root, bodies: bodies))
        case .failure(let problem): throw problem
        }
    }

    /// The cache's folder as last opened.
    var root: OpenDirectory {
        state.withLock { $0.root }
    }

    /// The `bodies` folder, for an entry in its subfolder number `folderNumber` (the digest's
    /// first byte): checked, the first time, to be a folder of the user or missing; nil when it is
    /// something else (a link is deleted).
    func bodies(forFolder folderNumber: Int) -> OpenDirectory? {
        let (bodies, isVerified) = state.withLock { state in
            (state.bodies, state.verifiedBodyFolders[folderNumber >> 6] & (1 << UInt64(folderNumber & 63)) != 0)
        }
        if isVerified { return bodies }
        let name = Self.folderName(folderNumber)
        var info = stat()
        guard fstatat(bodies.descriptor, name, &info, AT_SYMLINK_NOFOLLOW) == 0 else {
            return errno == ENOENT ? bodies : nil
        }
        guard info.st_mode & S_IFMT == S_IFDIR, info.st_uid == geteuid() else {
            if info.st_mode & S_IFMT != S_IFDIR { unlinkat(bodies.descriptor, name, 0) }
            return nil
        }
        state.withLock { state in
            if state.bodies === bodies {
                state.verifiedBodyFolders[folderNumber >> 6] |= 1 << UInt64(folderNumber & 63)
            }
        }
        return bodies
    }

    /// Opens `bodies/<folderNumber>` for writing in it, creating it when missing (a link or
    /// another user's entry in its place is deleted).
    func openBodyFolder(_ folderNumber: Int) -> Result<OpenDirectory, DiskCacheFolderProblem> {
        let bodies = state.withLock { $0.bodies }
        return fileSystem.openFolder(Self.folderName(folderNumber), in: bodies, creating: true)
    }

    /// Opens `tmp`, creating it when missing (a link or another user's entry in its place is
    /// deleted).
    func openTemporaryFolder() -> Result<OpenDirectory, DiskCacheFolderProblem> {
        fileSystem.openFolder("tmp", in: root, creating: true)
    }

    /// The `bodies` folder as last opened, for listing and emptying it.
    var bodiesFolder: OpenDirectory {
        state.withLock { $0.bodies }
    }

    /// Forgets which body folders were checked: they were deleted.
    func forgetVerifiedBodyFolders() {
        state.withLock { $0.verifiedBodyFolders = [0, 0, 0, 0] }
    }

    /// The cache's folder after opening the one its path names now, if that is another (the
    /// folder was deleted or replaced; it is re-created when missing), along with its `bodies`.
    ///
    /// - Throws: Why the folder the path names now is not trusted or cannot be made.
    @discardableResult
    func refreshed() throws(DiskCacheFolderProblem) -> OpenDirectory {
        let (root, bodies) = state.withLock { ($0.root, $0.bodies) }
        let rootNow = fileSystem.identity(of: layout.directory, in: AT_FDCWD)
        let bodiesNow = fileSystem.identity(of: "bodies", in: root.descriptor)
        if rootNow != nil, rootNow == fileSystem.identity(of: root.descriptor),
            bodiesNow != nil, bodiesNow == fileSystem.identity(of: bodies.descriptor)
        {
            return root
        }
        switch Self.open(layout: layout, fileSystem: fileSystem) {
        case .success(let (newRoot, newBodies)):
            state.withLock { $0 = State(root: newRoot, bodies: newBodies) }
            return newRoot
        case .failure(let problem):
            throw problem
        }
    }

    private static func open(
        layout: DiskCacheLayout, fileSystem: DiskCacheFileSystem
    ) -> Result<(OpenDirectory, OpenDirectory), DiskCacheFolderProblem> {
        fileSystem.openCacheFolder(layout.directory).flatMap { root in
            fileSystem.openFolder("bodies", in: root, creating: true).map { (root, $0) }
        }
    }

    /// `ab` for 0xab.
    static func folderName(_ folderNumber: Int) -> String {
        let digits = Array("0123456789abcdef".utf8)
        return String(decoding: [digits[folderNumber >> 4], digits[folderNumber & 15]], as: UTF8.self)
    }
}

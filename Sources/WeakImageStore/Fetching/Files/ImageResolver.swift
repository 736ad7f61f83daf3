import Foundation

/// Turns names and paths into ``ImageLocator``s by looking at the file system, `UIImage(named:)`
/// style, never leaving the store's directories for names.
///
/// A name's file location carries the real directory it was found in as its root, and the file
/// is read beneath it (``ConfinedFileOpener``), so a symbolic link swapped in after resolution cannot
/// lead the read outside.
///
/// For `scales: [2, 3, 1]` and `extensions: ["png"]`:
///
/// | name | files tried, in each directory in order |
/// |---|---|
/// | `"icon"` | `icon@2x.png`, `icon@3x.png`, `icon.png` |
/// | `"icon.png"` | `icon@2x.png`, `icon@3x.png`, `icon.png` |
/// | `"icon@3x"` | `icon@3x.png` |
///
/// The first regular file found wins; directories, FIFOs and devices are passed over.
struct ImageResolver: Sendable {
    let directories: [String]
    let scales: [Int]
    let extensions: [String]

    init(directories: [URL], scales: [Int], extensions: [String]) {
        precondition(!scales.isEmpty, "scales must not be empty")
        precondition(
            scales.allSatisfy { (1...ImageName.maximumScale).contains($0) },
            "scales must be between 1 and \(ImageName.maximumScale)")
        precondition(!extensions.isEmpty, "extensions must not be empty")
        precondition(
            extensions.allSatisfy { !$0.isEmpty && !$0.contains(".") && !$0.contains("/") },
            "extensions are given without a dot, like \"png\"")
        self.directories = directories.map { $0.standardizedFileURL.path }
        self.scales = scales
        self.extensions = extensions
    }

    /// Finds the file for `name`.
    ///
    /// - Throws: ``ImageStoreError/invalidName(_:reason:)`` for a hostile name or one whose file
    ///   resolves outside its directory; ``ImageStoreError/notFound(name:)`` otherwise.
    func resolve(name: String) throws(ImageStoreError) -> ImageLocator {
        let parsed = try ImageName(parsing: name, extensions: extensions)
        let candidates = parsed.candidateFileNames(scales: scales, extensions: extensions)
        for directory in directories {
            // A directory that does not exist (yet) simply holds nothing.
            guard let root = FileSystem.realPath(directory) else { continue }
            for candidate in candidates {
                guard let real = FileSystem.realPath(root + "/" + candidate.fileName) else { continue }
                guard FileSystem.isPath(real, inside: root) else {
                    throw .invalidName(name, reason: "\(candidate.fileName) resolves outside \(directory)")
                }
                guard case .regularFile = FileSystem.entry(at: real) else { continue }
                return Self.source(FileLocation(path: real, root: root), scale: candidate.scale)
            }
        }
        throw .notFound(name: name)
    }

    /// Finds the file at `path` (absolute, or relative to the working directory), anywhere: the
    /// path is the caller's, so it is not confined to the directories, and symbolic links and
    /// `..` in it are followed. Its scale comes from its name's suffix, so `icon@2x.png` shares
    /// with the name `"icon"`. The location's root is `/`: the read still follows no symbolic link
    /// that appears in the resolved path later, so a load a name shares is never redirected.
    ///
    /// - Throws: ``ImageStoreError/invalidName(_:reason:)`` for an empty path or one with a NUL
    ///   byte, ``ImageStoreError/notFound(name:)`` when nothing is there, and
    ///   ``ImageStoreError/unreadable(path:reason:)`` when it is not a regular file.
    func resolve(path: String) throws(ImageStoreError) -> ImageLocator {
        try ImageName.validate(path: path)
        guard let real = FileSystem.realPath(path) else { throw .notFound(name: path) }
        guard case .regularFile = FileSystem.entry(at: real) else {
            throw .unreadable(path: real, reason: "not a regular file")
        }
        let fileName = path.split(separator: "/").last ?? Substring(path)
        return Self.source(FileLocation(path: real), scale: ImageName.scale(ofFileName: fileName))
    }

    /// A file's full-size image: known by its real path and scale.
    private static func source(_ location: FileLocation, scale: Int) -> ImageLocator {
        ImageLocator(.file(realPath: location.path, scale: scale), bytes: .file(location))
    }
}

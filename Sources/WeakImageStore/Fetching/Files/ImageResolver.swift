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
    ///   resolves outside its directory; ``ImageStoreError/notFound(name:search:)`` saying what was
    ///   tried otherwise.
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
        throw .notFound(name: name, search: search(for: parsed, candidates: candidates.map(\.fileName)))
    }

    /// Entries listed per directory when looking for similar files: enough for any app's folder,
    /// bounded for a hostile one.
    private static let listedEntriesLimit = 4096
    /// Similar files named in an error, at most.
    private static let similarFilesLimit = 5

    /// What the failed lookup of `name` tried, and files that come close: same name in another
    /// letter case, or same stem with another image extension. Only folders inside the store's
    /// directories are listed.
    private func search(for name: ImageName, candidates: [String]) -> NameSearch {
        var missing: [String] = []
        var differentCase: [String] = []
        var otherExtensions: [String] = []
        let folder = name.stem.split(separator: "/").dropLast().joined(separator: "/")
        let stem = String(name.stem.split(separator: "/").last ?? "")
        let tried = Set(candidates.map { String($0.split(separator: "/").last ?? "") })
        let triedLowercased = Set(tried.map { $0.lowercased() })
        let imageExtensions = Set((extensions + ImageName.alwaysRecognizedExtensions).map { $0.lowercased() })
        for directory in directories {
            guard let root = FileSystem.realPath(directory) else {
                missing.append(directory)
                continue
            }
            guard let listed = FileSystem.realPath(folder.isEmpty ? root : root + "/" + folder),
                listed == root || FileSystem.isPath(listed, inside: root)
            else { continue }
            for entry in FileSystem.entryNames(in: listed, limit: Self.listedEntriesLimit) where !tried.contains(entry)
            {
                let path = folder.isEmpty ? entry : folder + "/" + entry
                if triedLowercased.contains(entry.lowercased()) {
                    differentCase.append(path)
                } else if let dot = entry.lastIndex(of: "."), Self.unscaled(entry[..<dot]) == stem,
                    imageExtensions.contains(entry[entry.index(after: dot)...].lowercased())
                {
                    otherExtensions.append(path)
                }
            }
        }
        return NameSearch(
            fileNames: candidates, directories: directories, missingDirectories: missing,
            configuredExtensions: name.fileExtension == nil ? extensions : [],
            differentCase: Array(differentCase.sorted().prefix(Self.similarFilesLimit)),
            otherExtensions: Array(otherExtensions.sorted().prefix(Self.similarFilesLimit)))
    }

    /// `stem` without a scale suffix: `icon` for `icon@2x`.
    private static func unscaled(_ stem: Substring) -> String {
        guard let at = stem.lastIndex(of: "@"), stem.hasSuffix("x"),
            Int(stem[stem.index(after: at)..<stem.index(before: stem.endIndex)]) != nil
        else { return String(stem) }
        return String(stem[..<at])
    }

    /// Finds the file at `path` (absolute, or relative to the working directory), anywhere: the
    /// path is the caller's, so it is not confined to the directories, and symbolic links and
    /// `..` in it are followed. Its scale comes from its name's suffix, so `icon@2x.png` shares
    /// with the name `"icon"`. The location's root is `/`: the read still follows no symbolic link
    /// that appears in the resolved path later, so a load a name shares is never redirected.
    ///
    /// - Throws: ``ImageStoreError/invalidName(_:reason:)`` for an empty path or one with a NUL
    ///   byte, ``ImageStoreError/notFound(name:search:)`` when nothing is there, and
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

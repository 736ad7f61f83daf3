/// What a lookup by name tried before it found nothing, so that
/// ``ImageStoreError/notFound(name:search:)`` can say why.
///
/// ```
/// no image named "beach" in the store's directories: tried beach@2x.png, beach@3x.png, beach.png
/// in /app/Images; a name without an extension is tried with the store's extensions only (png);
/// similar files there: beach.jpg (another extension: name it with its extension, or add it to
/// the store's extensions)
/// ```
public struct NameSearch: Sendable, Equatable, CustomStringConvertible {
    /// The file names tried in each directory, in order: `icon@2x.png`, `icon@3x.png`, `icon.png`.
    public let fileNames: [String]
    /// The directories searched, in order, as configured.
    public let directories: [String]
    /// The directories of ``directories`` that do not exist.
    public let missingDirectories: [String]
    /// The store's extensions when the name had none, so only they were tried; empty when the
    /// name gave its extension.
    public let configuredExtensions: [String]
    /// Files beside the tried ones whose names differ only in letter case (`beach.JPG` for
    /// `beach.jpg`): the lookup is case-sensitive, as the file system is on Linux and iOS.
    public let differentCase: [String]
    /// Files beside the tried ones with the name's stem and another image extension
    /// (`beach.jpg` when only `png` was tried).
    public let otherExtensions: [String]

    /// Creates a description of a search; the store makes these.
    public init(
        fileNames: [String], directories: [String], missingDirectories: [String], configuredExtensions: [String],
        differentCase: [String], otherExtensions: [String]
    ) {
        self.fileNames = fileNames
        self.directories = directories
        self.missingDirectories = missingDirectories
        self.configuredExtensions = configuredExtensions
        self.differentCase = differentCase
        self.otherExtensions = otherExtensions
    }

    /// What was tried and what came close, in a sentence for logs and error messages.
    public var description: String {
        let places = directories.map { missingDirectories.contains($0) ? "\($0) (does not exist)" : $0 }
        var parts = [
            "tried \(fileNames.joined(separator: ", ")) in "
                + (places.isEmpty ? "no directory (the store has none)" : places.joined(separator: ", "))
        ]
        if !configuredExtensions.isEmpty {
            parts.append(
                "a name without an extension is tried with the store's extensions only "
                    + "(\(configuredExtensions.joined(separator: ", ")))")
        }
        var similar: [String] = []
        similar += differentCase.map { "\($0) (letter case differs: names are case-sensitive)" }
        similar += otherExtensions.map {
            "\($0) (another extension: name it with its extension, or add it to the store's extensions)"
        }
        if !similar.isEmpty { parts.append("similar files there: " + similar.joined(separator: ", ")) }
        return parts.joined(separator: "; ")
    }
}

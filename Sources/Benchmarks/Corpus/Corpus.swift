import Foundation

/// The images of one run: files under ``root`` named as ``CorpusLayout`` says.
struct Corpus {
    /// A group of distinct files whose decode speed is measured together.
    struct DecodeGroup {
        let label: String
        let files: [URL]
    }

    /// The directory the stores look names up in; a temporary one, deleted by ``removeFiles()``.
    let root: URL
    let layout: CorpusLayout
    /// What plays each role, one line each, for the report.
    let summary: [String]
    let decodeGroups: [DecodeGroup]

    /// Deletes the corpus directory (never the user's files: those are only linked or copied in).
    func removeFiles() {
        try? FileManager.default.removeItem(at: root)
    }

    /// A new empty temporary directory for a corpus.
    static func makeTemporaryRoot() throws -> URL {
        let root = FileManager.default.temporaryDirectory
            .appendingPathComponent("WeakImageStore-Benchmarks-\(UUID().uuidString)", isDirectory: true)
        try FileManager.default.createDirectory(at: root, withIntermediateDirectories: true)
        return root
    }

    /// Makes `destination` another name for `source`: a hard link, or a copy where links are not
    /// possible (another volume). Never a symbolic link: the store keys images by resolved path,
    /// so a symlink would make two names one image.
    static func link(_ source: URL, to destination: URL) throws {
        try FileManager.default.createDirectory(
            at: destination.deletingLastPathComponent(),
            withIntermediateDirectories: true)
        do {
            try FileManager.default.linkItem(at: source, to: destination)
        } catch {
            try FileManager.default.copyItem(at: source, to: destination)
        }
    }
}

@testable import ImageCodecs
@testable import WeakImageStore

extension ImageKey {
    /// The real path of the file this image comes from; nil for other sources.
    var filePath: String? {
        source.kind == .file ? source.value : nil
    }
}

extension SourceIdentity {
    /// The identity of the file at `realPath`, at scale 1 unless given.
    static func file(_ realPath: String, scale: Int = 1) -> SourceIdentity {
        .file(realPath: realPath, scale: scale)
    }
}

/// Remembered resolutions of names and paths, including failures, so repeated lookups do not
/// touch the file system. (Other sources resolve without it: see
/// ``ImageRequest/Source/resolvedWithoutFileSystem``.)
///
/// Names and paths, successes and failures live in separate tables, so a hit hashes nothing but
/// the string and copies nothing but the source. Bounded: a table reaching ``capacity`` entries
/// starts over, which costs a re-resolution of the names in use, never sharing (images are keyed
/// by file, not by name).
struct ResolutionCache: Sendable {
    /// The most resolutions remembered per table: 4096.
    static let capacity = 4096

    /// A successful resolution, with where its image was last found in the storage.
    struct ResolvedFile: Sendable {
        let source: ImageLocator
        var hint = SlotHint()
    }

    /// The position of a resolved name, valid until the cache is next changed.
    typealias NameIndex = StringTable<ResolvedFile>.Index

    private struct Tables: Sendable {
        var files = StringTable<ResolvedFile>()
        var failures = StringTable<ImageStoreError>()
    }

    private var names = Tables()
    private var paths = Tables()

    subscript(request: ImageRequest.Source) -> Result<ImageLocator, ImageStoreError>? {
        guard let (tables, key) = tables(for: request) else { return nil }
        if let file = tables.files[key] { return .success(file.source) }
        if let error = tables.failures[key] { return .failure(error) }
        return nil
    }

    /// Where the file a name resolved to is remembered, if it resolved: the hit path, with no
    /// `Result` to build and a hint to update in place.
    func index(ofName name: String) -> NameIndex? {
        names.files.index(forKey: name)
    }

    func file(at index: NameIndex) -> ResolvedFile {
        names.files[valueAt: index]
    }

    /// The hit path: looks the file a name resolved to up in `storage` through its remembered
    /// slot hint, in place. Copying the entry out would retain and release the key's strings
    /// on every hit.
    @inline(__always)
    mutating func lookUpFile(
        at index: NameIndex, in storage: any ImageCacheStorage, released: inout [CachedImage]
    ) -> CacheLookup {
        Self.lookUp(&names.files[valueAt: index], in: storage, released: &released)
    }

    @inline(__always)
    private static func lookUp(
        _ file: inout ResolvedFile, in storage: any ImageCacheStorage, released: inout [CachedImage]
    ) -> CacheLookup {
        storage.lookup(file.source.key, hint: &file.hint, released: &released)
    }

    /// Remembers how a name or a path resolved; other sources are not remembered here.
    mutating func remember(_ resolution: Result<ImageLocator, ImageStoreError>, for request: ImageRequest.Source) {
        switch request {
        case .named(let name): Self.insert(resolution, for: name, into: &names)
        case .file(let path): Self.insert(resolution, for: path, into: &paths)
        case .url, .provider: break
        }
    }

    /// Forgets a resolution that turned out stale (the file vanished or changed).
    mutating func forget(_ request: ImageRequest.Source) {
        switch request {
        case .named(let name): names.files[name] = nil
        case .file(let path): paths.files[path] = nil
        case .url, .provider: break
        }
    }

    mutating func removeAll() {
        names = Tables()
        paths = Tables()
    }

    private func tables(for request: ImageRequest.Source) -> (Tables, String)? {
        switch request {
        case .named(let name): (names, name)
        case .file(let path): (paths, path)
        case .url, .provider: nil
        }
    }

    private static func insert(
        _ resolution: Result<ImageLocator, ImageStoreError>, for key: String, into tables: inout Tables
    ) {
        switch resolution {
        case .success(let file):
            if tables.files.count >= capacity, tables.files[key] == nil {
                tables.files.removeAll(keepingCapacity: true)
            }
            tables.files[key] = ResolvedFile(source: file)
        case .failure(let error):
            if tables.failures.count >= capacity, tables.failures[key] == nil {
                tables.failures.removeAll(keepingCapacity: true)
            }
            tables.failures[key] = error
        }
    }
}

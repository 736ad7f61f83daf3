/// A name as `UIImage(named:)` takes it, split into stem, optional extension and optional scale.
///
/// | name | stem | extension | scale |
/// |---|---|---|---|
/// | `"icon"` | `icon` | any configured | any configured |
/// | `"icon.png"` | `icon` | `png` | any configured |
/// | `"icon@2x"` | `icon` | any configured | 2 |
/// | `"toolbar/icon@3x.png"` | `toolbar/icon` | `png` | 3 |
///
/// An extension is recognized only if it is one of the store's extensions or one of the
/// ``alwaysRecognizedExtensions`` (case-insensitive), so `"logo.v2"` is the stem `logo.v2` while
/// `"photo.jpg"` names `photo.jpg` (or `photo@2x.jpg`) in a store whose extensions are `["png"]`,
/// as `UIImage(named:)` does.
struct ImageName: Equatable {
    /// Names longer than this many UTF-8 bytes are refused; file systems cap paths at 4096.
    static let maximumLength = 1024
    /// Scale suffixes above this (`@99x`) are not scale suffixes.
    static let maximumScale = 16
    /// Image extensions recognized in a name whatever the store's extensions: those of the
    /// built-in decoders.
    static let alwaysRecognizedExtensions = ["png", "jpg", "jpeg", "gif", "apng", "webp"]

    let stem: String
    let fileExtension: String?
    let scale: Int?

    init(stem: String, fileExtension: String?, scale: Int?) {
        self.stem = stem
        self.fileExtension = fileExtension
        self.scale = scale
    }

    /// Parses and validates `name`.
    ///
    /// - Throws: ``ImageStoreError/invalidName(_:reason:)`` for an empty, absolute or over-long
    ///   name, a NUL byte, or a `.`/`..`/empty path component.
    init(parsing name: String, extensions: [String]) throws(ImageStoreError) {
        try Self.validate(relativePath: name)
        var stem = Substring(name)
        var fileExtension: String?
        let lastComponent = stem.split(separator: "/").last ?? stem
        if let dot = lastComponent.lastIndex(of: "."), dot != lastComponent.startIndex {
            let candidate = lastComponent[lastComponent.index(after: dot)...]
            let known = extensions + Self.alwaysRecognizedExtensions
            if known.contains(where: { $0.lowercased() == candidate.lowercased() }) {
                // Keep the caller's spelling: on a case-sensitive file system it names the file.
                fileExtension = String(candidate)
                stem = stem[..<dot]
            }
        }
        let (unscaledStem, scale) = Self.splitScaleSuffix(stem)
        guard !unscaledStem.isEmpty, unscaledStem.last != "/" else {
            throw .invalidName(name, reason: "the name has no file name before its suffixes")
        }
        self.stem = String(unscaledStem)
        self.fileExtension = fileExtension
        self.scale = scale
    }

    /// The file names to try, in order: for each extension, each scale (`@2x`, `@3x`, plain).
    func candidateFileNames(scales: [Int], extensions: [String]) -> [(fileName: String, scale: Int)] {
        let extensionsToTry = fileExtension.map { [$0] } ?? extensions
        let scalesToTry = scale.map { [$0] } ?? scales
        var candidates: [(String, Int)] = []
        candidates.reserveCapacity(extensionsToTry.count * scalesToTry.count)
        for fileExtension in extensionsToTry {
            for scale in scalesToTry {
                // An explicit "@1x" names a file with that suffix; the scale list's 1 is the plain file.
                let suffix = (scale == 1 && self.scale == nil) ? "" : "@\(scale)x"
                candidates.append(("\(stem)\(suffix).\(fileExtension)", scale))
            }
        }
        return candidates
    }

    /// The scale a file name carries: 3 for `icon@3x.png`, else 1.
    static func scale(ofFileName fileName: Substring) -> Int {
        var stem = fileName
        if let dot = stem.lastIndex(of: "."), dot != stem.startIndex {
            stem = stem[..<dot]
        }
        return splitScaleSuffix(stem).scale ?? 1
    }

    /// Rejects names that could reach outside a directory or confuse the file system.
    static func validate(relativePath name: String) throws(ImageStoreError) {
        try validate(path: name)
        if name.hasPrefix("/") {
            throw .invalidName(name, reason: "absolute names are not allowed")
        }
        for component in name.split(separator: "/", omittingEmptySubsequences: false) {
            switch component {
            case "..": throw .invalidName(name, reason: "'..' components are not allowed")
            case ".": throw .invalidName(name, reason: "'.' components are not allowed")
            case "": throw .invalidName(name, reason: "empty path components are not allowed")
            default: continue
            }
        }
    }

    /// Rejects empty, over-long and NUL-carrying paths.
    static func validate(path: String) throws(ImageStoreError) {
        if path.isEmpty {
            throw .invalidName(path, reason: "the name is empty")
        }
        if path.utf8.count > maximumLength {
            throw .invalidName(String(path.prefix(64)) + "…", reason: "longer than \(maximumLength) bytes")
        }
        if path.utf8.contains(0) {
            throw .invalidName(path, reason: "contains a NUL byte")
        }
    }

    private static func splitScaleSuffix(_ stem: Substring) -> (stem: Substring, scale: Int?) {
        guard stem.hasSuffix("x"), let at = stem.lastIndex(of: "@") else { return (stem, nil) }
        let digits = stem[stem.index(after: at)..<stem.index(before: stem.endIndex)]
        guard digits.count <= 2, digits.allSatisfy(\.isASCII), let scale = Int(digits),
            (1...maximumScale).contains(scale)
        else { return (stem, nil) }
        return (stem[..<at], scale)
    }
}

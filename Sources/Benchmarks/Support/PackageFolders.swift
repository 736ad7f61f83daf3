import Foundation

/// Folders of the package the benchmark was built from, found from this source file so that any
/// working directory will do.
enum PackageFolders {
    /// The package root: three folders above `Sources/Benchmarks/Support`.
    static let root = URL(fileURLWithPath: #filePath).deletingLastPathComponent().deletingLastPathComponent()
        .deletingLastPathComponent().deletingLastPathComponent()

    /// The test suites (`jpegsuite`, `gifsuite`, …): real files with reference pixels.
    static let testFixtures = root.appendingPathComponent("Tests/WeakImageStoreTests/Fixtures")

    /// The real photographs the decode speed tables measure (``RealPhotos``).
    static let photos = root.appendingPathComponent("Sources/Benchmarks/Photos")
}

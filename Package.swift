// swift-tools-version:6.2
import PackageDescription

let package = Package(
    name: "WeakImageStore",
    platforms: [.iOS(.v15), .macOS(.v12), .tvOS(.v15), .watchOS(.v8)],
    products: [
        .library(name: "WeakImageStore", targets: ["WeakImageStore"]),
    ],
    targets: [
        // The decoders, Bitmap and what they need; the library re-exports it. A target of its own
        // so the compiler keeps codecs from knowing anything of the store, and fuzzers build it alone.
        .target(name: "ImageCodecs"),
        .target(name: "WeakImageStore", dependencies: ["ImageCodecs"]),
        // What the tests and the benchmark both need (image encoders, seeded random numbers, a
        // loopback HTTP server); in no product, so apps never build it.
        .target(name: "ImageStoreTestSupport", dependencies: ["WeakImageStore", "ImageCodecs"]),
        // The photographs are read from their path (PackageFolders.photos), not bundled.
        .executableTarget(
            name: "Benchmarks", dependencies: ["WeakImageStore", "ImageCodecs", "ImageStoreTestSupport"],
            exclude: ["Photos"]),
        // Fixtures are read from their path (SharedTestData.packageRoot), not bundled.
        .testTarget(
            name: "WeakImageStoreTests", dependencies: ["WeakImageStore", "ImageCodecs", "ImageStoreTestSupport"],
            exclude: ["Fixtures"]),
    ],
    swiftLanguageModes: [.v6]
)

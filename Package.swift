// swift-tools-version:6.2
import PackageDescription

let package = Package(
    name: "WeakImageStore",
    platforms: [.iOS(.v15), .macOS(.v12), .tvOS(.v15), .watchOS(.v8)],
    products: [
        .library(name: "WeakImageStore", targets: ["WeakImageStore"]),
    ],
    targets: [
        .target(name: "WeakImageStore"),
        // What the tests and the benchmark both need (image encoders, seeded random numbers, a
        // loopback HTTP server); in no product, so apps never build it.
        .target(name: "ImageStoreTestSupport", dependencies: ["WeakImageStore"]),
        .executableTarget(name: "Benchmarks", dependencies: ["WeakImageStore", "ImageStoreTestSupport"]),
        // Fixtures are read from their path (SharedTestData.packageRoot), not bundled.
        .testTarget(
            name: "WeakImageStoreTests", dependencies: ["WeakImageStore", "ImageStoreTestSupport"],
            exclude: ["Fixtures"]),
    ],
    swiftLanguageModes: [.v6]
)

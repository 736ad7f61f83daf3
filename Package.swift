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
        .executableTarget(name: "Benchmarks", dependencies: ["WeakImageStore"]),
        .testTarget(name: "WeakImageStoreTests", dependencies: ["WeakImageStore"]),
    ],
    swiftLanguageModes: [.v6]
)

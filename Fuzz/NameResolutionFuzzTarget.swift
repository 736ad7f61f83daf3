// libFuzzer entry point for name resolution, compiled together with the library's sources by
// Scripts/fuzz.sh (not part of the package). Every input is a name: whatever it is, resolution
// must throw a typed error or return a file inside the directory, never one outside it.
import Foundation

/// A directory with images, a subdirectory, a symlink that stays inside, a symlink that escapes,
/// a FIFO and a directory named like an image, built once per fuzzing process.
private let fixture: (resolver: ImageResolver, root: String) = {
    let base = FileManager.default.temporaryDirectory.appendingPathComponent("name-fuzz-\(getpid())")
    let root = base.appendingPathComponent("images")
    let outside = base.appendingPathComponent("outside")
    try? FileManager.default.createDirectory(at: root.appendingPathComponent("sub"), withIntermediateDirectories: true)
    try? FileManager.default.createDirectory(at: outside, withIntermediateDirectories: true)
    for name in ["icon.png", "icon@2x.png", "sub/back@3x.png", "outside.png"] {
        _ = FileManager.default.createFile(atPath: root.appendingPathComponent(name).path, contents: Data([1]))
    }
    _ = FileManager.default.createFile(atPath: outside.appendingPathComponent("secret.png").path, contents: Data([2]))
    try? FileManager.default.createSymbolicLink(atPath: root.path + "/inside.png", withDestinationPath: "icon.png")
    try? FileManager.default.createSymbolicLink(
        atPath: root.path + "/escape.png", withDestinationPath: outside.path + "/secret.png")
    try? FileManager.default.createSymbolicLink(atPath: root.path + "/up", withDestinationPath: "..")
    try? FileManager.default.createDirectory(
        at: root.appendingPathComponent("folder.png"), withIntermediateDirectories: true)
    mkfifo(root.path + "/pipe.png", 0o644)
    let resolver = ImageResolver(directories: [root], scales: [2, 3, 1], extensions: ["png"])
    return (resolver, FileSystem.realPath(root.path) ?? root.path)
}()

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzNameResolution(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> Int32 {
    let name = String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    do {
        let key = try fixture.resolver.resolve(name: name)
        guard FileSystem.isPath(key.path, inside: fixture.root) else {
            fatalError("\(name.debugDescription) resolved outside the directory: \(key.path)")
        }
        guard case .regularFile = FileSystem.entry(at: key.path) else {
            fatalError("\(name.debugDescription) resolved to a non-regular file: \(key.path)")
        }
    } catch {
        // A typed ImageStoreError is the expected outcome for hostile names.
        _ = error.description
    }
    return 0
}

// libFuzzer entry point for name resolution, compiled together with the library's sources by
// Scripts/fuzz.sh (not part of the package). Every input is a name: whatever it is, resolution
// must throw a typed error or return a file inside the directory, never one outside it, and the
// read of that file must never return an outside file's bytes, even though a background thread
// keeps swapping the folder `swap` for a symbolic link to the outside folder.
import Foundation

/// What every file outside the directory holds; no read may ever return it. (A string literal,
/// not a `Data`: a global holding allocated storage shows up in LeakSanitizer's reports.)
private let secret = "SECRET: outside the image directory"

/// A directory with images, a subdirectory, a symlink that stays inside, a symlink that escapes,
/// a FIFO, a directory named like an image, and the folder `swap` that a background thread keeps
/// exchanging with a symbolic link to the outside folder; built once per fuzzing process.
private let fixture: (resolver: ImageResolver, reader: ImageFileReader, root: String) = {
    let base = FileManager.default.temporaryDirectory.appendingPathComponent("name-fuzz-\(getpid())")
    let root = base.appendingPathComponent("images")
    let outside = base.appendingPathComponent("outside")
    for folder in [root.appendingPathComponent("sub"), root.appendingPathComponent("swap"), outside] {
        try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
    }
    for name in ["icon.png", "icon@2x.png", "sub/back@3x.png", "outside.png", "swap/icon.png", "swap/back@2x.png"] {
        _ = FileManager.default.createFile(atPath: root.appendingPathComponent(name).path, contents: Data([1]))
    }
    for name in ["secret.png", "icon.png", "back@2x.png"] {
        _ = FileManager.default.createFile(
            atPath: outside.appendingPathComponent(name).path, contents: Data(secret.utf8))
    }
    try? FileManager.default.createSymbolicLink(atPath: root.path + "/inside.png", withDestinationPath: "icon.png")
    try? FileManager.default.createSymbolicLink(
        atPath: root.path + "/escape.png", withDestinationPath: outside.path + "/secret.png")
    try? FileManager.default.createSymbolicLink(atPath: root.path + "/up", withDestinationPath: "..")
    try? FileManager.default.createDirectory(
        at: root.appendingPathComponent("folder.png"), withIntermediateDirectories: true)
    mkfifo(root.path + "/pipe.png", 0o644)
    try? FileManager.default.createSymbolicLink(atPath: base.path + "/swap-partner", withDestinationPath: outside.path)
    startSwapping(root.path + "/swap", with: base.path + "/swap-partner")
    let resolver = ImageResolver(directories: [root], scales: [2, 3, 1], extensions: ["png"])
    return (resolver, ImageFileReader(maximumFileSize: 1 << 20), FileSystem.realPath(root.path) ?? root.path)
}()

/// Exchanges `folder` and `partner` (a symbolic link to the outside) forever on a background
/// thread: atomically with `renameat2(RENAME_EXCHANGE)` where the kernel has it, else in three
/// renames.
private func startSwapping(_ folder: String, with partner: String) {
    typealias RenameAt2 = @convention(c) (Int32, UnsafePointer<CChar>, Int32, UnsafePointer<CChar>, UInt32) -> Int32
    let renameat2 = dlsym(dlopen(nil, RTLD_NOW), "renameat2").map { unsafeBitCast($0, to: RenameAt2.self) }
    let renameExchange: UInt32 = 2
    let thread = Thread {
        while true {
            if renameat2?(AT_FDCWD, folder, AT_FDCWD, partner, renameExchange) == 0 { continue }
            rename(folder, folder + ".parked")
            rename(partner, folder)
            rename(folder + ".parked", partner)
        }
    }
    thread.start()
}

@_cdecl("LLVMFuzzerTestOneInput")
public func fuzzNameResolution(_ bytes: UnsafePointer<UInt8>, _ count: Int) -> Int32 {
    let name = String(decoding: UnsafeBufferPointer(start: bytes, count: count), as: UTF8.self)
    do {
        guard case .file(let file) = try fixture.resolver.resolve(name: name).bytes else {
            fatalError("\(name.debugDescription) resolved to something other than a file")
        }
        guard FileSystem.isPath(file.path, inside: fixture.root) else {
            fatalError("\(name.debugDescription) resolved outside the directory: \(file.path)")
        }
        // Under the swapped folder the file may be gone by now; elsewhere it must be a file.
        if !FileSystem.isPath(file.path, inside: fixture.root + "/swap") {
            guard case .regularFile = FileSystem.entry(at: file.path) else {
                fatalError("\(name.debugDescription) resolved to a non-regular file: \(file.path)")
            }
        }
        if let data = try? fixture.reader.read(file), data.elementsEqual(secret.utf8) {
            fatalError("\(name.debugDescription) read a file outside the directory through \(file.path)")
        }
    } catch {
        // A typed ImageStoreError is the expected outcome for hostile names.
        _ = error.description
    }
    return 0
}

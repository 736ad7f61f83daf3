import Foundation

/// A temporary directory for one test, removed when the test ends.
final class TestDirectory: Sendable {
    let url: URL
    var path: String { url.path }

    init(_ label: String = #function) {
        let safeLabel = label.filter { $0.isLetter || $0.isNumber }
        url = FileManager.default.temporaryDirectory
            .appendingPathComponent("WeakImageStoreTests-\(safeLabel)-\(UUID().uuidString)")
        try? FileManager.default.createDirectory(at: url, withIntermediateDirectories: true)
    }

    deinit {
        try? FileManager.default.removeItem(at: url)
    }

    /// Writes `bytes` to `name` (which may contain subdirectories) and returns its path.
    @discardableResult
    func write(_ name: String, _ bytes: [UInt8]) -> String {
        let file = url.appendingPathComponent(name)
        try? FileManager.default.createDirectory(
            at: file.deletingLastPathComponent(), withIntermediateDirectories: true
        )
        _ = FileManager.default.createFile(atPath: file.path, contents: Data(bytes))
        return file.path
    }

    /// Writes a file of `size` bytes for ``FakeDecoder``: its cost will be `size`.
    @discardableResult
    func write(_ name: String, size: Int, fill: UInt8 = 7) -> String {
        write(name, [UInt8](repeating: fill, count: size))
    }

    /// Creates a subdirectory and returns its URL.
    func makeDirectory(_ name: String) -> URL {
        let directory = url.appendingPathComponent(name)
        try? FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        return directory
    }

    func remove(_ name: String) {
        try? FileManager.default.removeItem(at: url.appendingPathComponent(name))
    }
}

/// Observes an object without keeping it alive.
struct WeakObserver<Object: AnyObject> {
    weak var object: Object?

    init(_ object: Object?) {
        self.object = object
    }
}

import Foundation
import XCTest

/// The asynchronous loads have a name of their own (`fetchImage`), so no context can pick the
/// synchronous lookup by mistake: in a `main.swift` script `try await store.image(for:)` used to
/// resolve to the synchronous `image(for:) -> Image?` and return `nil` without loading. These
/// tests compile small files against the built module with `swiftc`, as a user's code is.
final class AsyncSpellingCompileTests: XCTestCase {
    private static let prelude = """
        import Foundation
        import WeakImageStore
        let images = ImageStore<Bitmap>(.init(directories: [URL(fileURLWithPath: "/tmp")]))

        """

    func test_scriptTopLevel_fetchImageIsTheAsyncLoad() throws {
        // Given: top-level code, where an `await` does not make the synchronous overload lose
        let script =
            Self.prelude + """
                let photo: Bitmap = try await images.fetchImage(for: .named("beach.jpg"))
                let thumbnail: Bitmap = try await images.fetchImage(named: "beach.jpg", maxPixelSize: 256)
                let cached: Bitmap? = images.image(for: .named("beach.jpg"))
                print(photo, thumbnail, cached as Any)
                """
        // When
        let result = try compile(script, asScript: true)
        // Then: it type-checks as the async throwing load (a non-optional Bitmap), with no warning
        XCTAssertEqual(result.status, 0, result.output)
        XCTAssertFalse(result.output.contains("warning:"), result.output)
    }

    func test_fetchImage_hasNoSynchronousTwin() throws {
        // Given: a synchronous function that forgets `await`
        let source =
            Self.prelude + """
                func load() throws -> Bitmap { try images.fetchImage(for: .named("beach.jpg")) }
                """
        // When
        let result = try compile(source, asScript: false)
        // Then
        XCTAssertNotEqual(result.status, 0, "fetchImage must be async only")
        XCTAssertTrue(result.output.contains("'async'"), result.output)
    }

    func test_oldAsyncSpelling_isDeprecated_withTheNewName() throws {
        // Given: the first spelling in an async function, where it still resolves to the async load
        let source =
            Self.prelude + """
                func load() async throws -> Bitmap { try await images.image(for: .named("beach.jpg")) }
                func frame(_ animation: ImageAnimation<Bitmap>) async throws -> Bitmap {
                    try await animation.frame(at: 0, priority: .high)
                }
                """
        // When
        let result = try compile(source, asScript: false)
        // Then
        XCTAssertEqual(result.status, 0, result.output)
        XCTAssertTrue(result.output.contains("renamed to 'fetchImage(for:priority:)'"), result.output)
        XCTAssertTrue(result.output.contains("renamed to 'fetchFrame(at:priority:)'"), result.output)
    }

    /// Type-checks `source` against the modules this test bundle was built with.
    private func compile(_ source: String, asScript: Bool) throws -> (status: Int32, output: String) {
        let folder = FileManager.default.temporaryDirectory.appendingPathComponent("async-spelling-\(UUID())")
        try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true)
        defer { try? FileManager.default.removeItem(at: folder) }
        // A script is a `main.swift`; any other name is library code, where top-level statements are errors.
        let file = folder.appendingPathComponent(asScript ? "main.swift" : "Library.swift")
        try source.write(to: file, atomically: true, encoding: .utf8)
        let process = Process()
        process.executableURL = try Self.swiftc()
        var arguments = ["-typecheck", "-swift-version", "6", "-I", Self.modules.path, file.path]
        if !asScript { arguments.insert("-parse-as-library", at: 0) }
        process.arguments = arguments
        let pipe = Pipe()
        process.standardOutput = pipe
        process.standardError = pipe
        try process.run()
        let output = String(decoding: pipe.fileHandleForReading.readDataToEndOfFile(), as: UTF8.self)
        process.waitUntilExit()
        return (process.terminationStatus, output)
    }

    /// The `Modules` folder beside this test bundle, where the package's modules are.
    private static let modules = URL(fileURLWithPath: CommandLine.arguments[0]).resolvingSymlinksInPath()
        .deletingLastPathComponent().appendingPathComponent("Modules")

    /// `swiftc` from `PATH`: the toolchain that runs `swift test` has it beside `swift`.
    private static func swiftc() throws -> URL {
        let path = ProcessInfo.processInfo.environment["PATH"] ?? ""
        for folder in path.split(separator: ":") {
            let candidate = URL(fileURLWithPath: String(folder)).appendingPathComponent("swiftc")
            if FileManager.default.isExecutableFile(atPath: candidate.path) { return candidate }
        }
        throw CompilerNotFound(path: path)
    }

    private struct CompilerNotFound: Error, CustomStringConvertible {
        let path: String
        var description: String { "swiftc not found in PATH (\(path)): put the toolchain's bin folder on PATH" }
    }
}

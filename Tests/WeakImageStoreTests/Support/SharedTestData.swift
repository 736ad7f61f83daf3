import Foundation

/// Where the test data lives: the package root, and the conformance suites (`pngsuite`,
/// `jpegsuite`, `thumbsuite`) in `Tests/WeakImageStoreTests/Fixtures`.
enum SharedTestData {
    /// A suite is missing from the checkout: every clone has them, so this is a broken checkout,
    /// not a reason to skip.
    struct MissingSuite: Error, CustomStringConvertible {
        let folder: URL

        var description: String {
            "\(folder.path)/MANIFEST.tsv not found: the conformance suites are part of the repository "
                + "(git checkout -- Tests/WeakImageStoreTests/Fixtures restores them)"
        }
    }

    /// The folder of the suite `name` in `Tests/WeakImageStoreTests/Fixtures`.
    ///
    /// - Throws: ``MissingSuite`` if it holds no `MANIFEST.tsv`.
    static func directory(named name: String) throws -> URL {
        let folder = fixtures.appendingPathComponent(name)
        guard FileManager.default.fileExists(atPath: folder.appendingPathComponent("MANIFEST.tsv").path) else {
            throw MissingSuite(folder: folder)
        }
        return folder
    }

    /// `Tests/WeakImageStoreTests/Fixtures`, which the test target excludes from its sources.
    static let fixtures = packageRoot.appendingPathComponent("Tests/WeakImageStoreTests/Fixtures")

    /// The folder holding `Package.swift`, found by walking up from this source file, so moving
    /// test files between folders never breaks the lookup.
    static let packageRoot: URL = {
        var folder = URL(fileURLWithPath: #filePath).deletingLastPathComponent()
        while folder.path != "/" {
            if FileManager.default.fileExists(atPath: folder.appendingPathComponent("Package.swift").path) {
                return folder
            }
            folder.deleteLastPathComponent()
        }
        return folder
    }()
}

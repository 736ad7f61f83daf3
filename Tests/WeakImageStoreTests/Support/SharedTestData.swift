import Foundation
import XCTest

/// The shared test suites (`pngsuite`, `jpegsuite`, `thumbsuite`) that live beside the package in
/// `../shared/`, or wherever an environment variable points.
enum SharedTestData {
    /// The folder of the suite `name`: `$<environmentVariable>` if set, else `../shared/<name>`
    /// beside the package root.
    ///
    /// - Throws: `XCTSkip` if neither holds `MANIFEST.tsv`, so a checkout without the suites still
    ///   runs every other test.
    static func directory(named name: String, environmentVariable: String) throws -> URL {
        var candidates: [URL] = []
        if let path = ProcessInfo.processInfo.environment[environmentVariable] {
            candidates.append(URL(fileURLWithPath: path))
        }
        candidates.append(packageRoot.deletingLastPathComponent().appendingPathComponent("shared/\(name)"))
        for candidate in candidates
        where FileManager.default.fileExists(atPath: candidate.appendingPathComponent("MANIFEST.tsv").path) {
            return candidate
        }
        throw XCTSkip("\(name) not found: set \(environmentVariable) or put it at ../shared/\(name)")
    }

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

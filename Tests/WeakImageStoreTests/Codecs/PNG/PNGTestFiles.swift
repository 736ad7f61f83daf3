import Foundation
import XCTest

@testable import WeakImageStore

/// PngSuite access for the PNG decoder tests (``PNGFile`` in ImageStoreTestSupport builds files).
enum PNGTestFiles {
    /// One row of the PngSuite `MANIFEST.tsv`.
    struct SuiteEntry {
        let name: String
        let isValid: Bool
        let width: Int?
        let height: Int?
    }

    /// The PngSuite folder: `$PNGSUITE_DIR`, else `../shared/pngsuite` beside the package root.
    ///
    /// - Throws: `XCTSkip` if neither holds a `MANIFEST.tsv`.
    static func suiteDirectory() throws -> URL {
        try SharedTestData.directory(named: "pngsuite", environmentVariable: "PNGSUITE_DIR")
    }

    /// The rows of `MANIFEST.tsv`.
    static func manifest() throws -> [SuiteEntry] {
        let text = try String(contentsOf: suiteDirectory().appendingPathComponent("MANIFEST.tsv"), encoding: .utf8)
        return text.split(separator: "\n").dropFirst().compactMap { line in
            let fields = line.split(separator: "\t").map(String.init)
            guard fields.count == 4 else { return nil }
            return SuiteEntry(
                name: fields[0], isValid: fields[1] == "ok", width: Int(fields[2]), height: Int(fields[3])
            )
        }
    }

    /// The bytes of one suite file.
    static func suiteFile(_ name: String) throws -> Data {
        try Data(contentsOf: suiteDirectory().appendingPathComponent(name))
    }

    /// libpng's RGBA8 pixels for one valid suite file.
    static func reference(_ name: String) throws -> Data {
        let base = (name as NSString).deletingPathExtension
        return try Data(contentsOf: suiteDirectory().appendingPathComponent("reference/\(base).rgba"))
    }

    /// Decodes with the default decoder and returns the typed error, or `nil` if decoding succeeds.
    static func decodingError(_ data: Data, decoder: PNGDecoder = PNGDecoder()) -> PNGError? {
        do {
            _ = try decoder.decode(data, scale: 1)
            return nil
        } catch {
            return error
        }
    }
}

import Foundation
import XCTest

@testable import ImageCodecs
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

    /// The PngSuite folder, `Tests/WeakImageStoreTests/Fixtures/pngsuite`.
    ///
    /// - Throws: ``SharedTestData/MissingSuite`` if it holds no `MANIFEST.tsv`.
    static func suiteDirectory() throws -> URL {
        try SharedTestData.directory(named: "pngsuite")
    }

    /// The suite's `REFERENCES.tsv`, read once.
    private static let references = Result { try SuiteReferences(folder: suiteDirectory()) }

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
    static func reference(_ name: String) throws -> [UInt8] {
        let base = (name as NSString).deletingPathExtension
        return try references.get().pixels("reference/\(base).rgba")
    }

    /// A decoder that streams every non-interlaced image through ``PNGRowStream``'s inflater, as
    /// a full decode streams large images, where the default inflates small ones whole.
    static let streamingDecoder: PNGDecoder = {
        var decoder = PNGDecoder()
        decoder.wholeInflationLimit = 0
        return decoder
    }()

    /// Decodes `data` both ways (whole and streamed, see ``streamingDecoder``), fails the test if
    /// the two differ in pixels or error, and returns the default decoder's outcome.
    static func decodedBothWays(
        _ data: Data, decoder: PNGDecoder = PNGDecoder(), file: StaticString = #filePath, line: UInt = #line
    ) -> Result<Bitmap, PNGError> {
        func outcome(_ decoder: PNGDecoder) -> Result<Bitmap, PNGError> {
            do {
                return .success(try decoder.decode(data, scale: 1))
            } catch {
                return .failure(error)
            }
        }
        let whole = outcome(decoder)
        var streaming = decoder
        streaming.wholeInflationLimit = 0
        switch (whole, outcome(streaming)) {
        case (.success(let bitmap), .success(let streamed)):
            XCTAssertEqual(streamed.format, bitmap.format, "streamed decode's format", file: file, line: line)
            XCTAssertEqual(streamed.pixels, bitmap.pixels, "streamed decode's pixels", file: file, line: line)
        case (.failure(let error), .failure(let streamed)):
            XCTAssertEqual(streamed, error, "streamed decode's error", file: file, line: line)
        case (_, let streamed):
            XCTFail("whole decode: \(whole), streamed decode: \(streamed)", file: file, line: line)
        }
        return whole
    }

    /// Decodes with `decoder`, checked against a streamed decode (see
    /// ``decodedBothWays(_:decoder:file:line:)``), and returns the typed error, or `nil` if
    /// decoding succeeds.
    static func decodingError(
        _ data: Data, decoder: PNGDecoder = PNGDecoder(), file: StaticString = #filePath, line: UInt = #line
    ) -> PNGError? {
        guard case .failure(let error) = decodedBothWays(data, decoder: decoder, file: file, line: line) else {
            return nil
        }
        return error
    }
}

import Foundation

@testable import ImageCodecs

/// The files of `Tests/WeakImageStoreTests/Fixtures/webpsuite` and their references, made by
/// `Scripts/make-webpsuite.py`: `MANIFEST.tsv` holds, per file, its status, size, and the SHA-256
/// of `dwebp -pam`'s RGBA bytes (and of its alpha channel alone for lossy files with alpha).
enum WebPSuite {
    /// One line of the manifest.
    struct Entry {
        enum Status: String {
            /// Decoded byte-exact.
            case ok
            /// Lossy: refused until the lossy decoder is plugged in.
            case lossy
            /// Refused by dwebp and by the decoder.
            case error
        }

        let file: String
        let status: Status
        let width: Int
        let height: Int
        let rgbaSHA256: String
        /// The alpha channel's hash, for a lossy file with an `ALPH` chunk.
        let alphaSHA256: String?
    }

    static let folder = SharedTestData.packageRoot.appendingPathComponent(
        "Tests/WeakImageStoreTests/Fixtures/webpsuite")

    static func data(_ file: String) throws -> Data {
        try Data(contentsOf: folder.appendingPathComponent(file))
    }

    static func entries() throws -> [Entry] {
        let text = try String(contentsOf: folder.appendingPathComponent("MANIFEST.tsv"), encoding: .utf8)
        return text.split(separator: "\n").dropFirst().map { line in
            let fields = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            return Entry(
                file: fields[0], status: Entry.Status(rawValue: fields[1]) ?? .error, width: Int(fields[2]) ?? 0,
                height: Int(fields[3]) ?? 0, rgbaSHA256: fields[5], alphaSHA256: fields[6] == "-" ? nil : fields[6])
        }
    }

    static func hash(_ bytes: [UInt8]) -> String {
        bytes.withUnsafeBytes { SHA256.hash($0) }.description
    }
}

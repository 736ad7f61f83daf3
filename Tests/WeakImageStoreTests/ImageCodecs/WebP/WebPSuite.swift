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
            /// Animated: frames byte-exact with libwebp's WebPAnimDecoder (`FRAMES.tsv`).
            case animated
        }

        let file: String
        let status: Status
        let width: Int
        let height: Int
        let frameCount: Int
        /// The loop count of an animated file.
        let loopCount: Int?
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
                height: Int(fields[3]) ?? 0, frameCount: Int(fields[4]) ?? 0,
                loopCount: fields[5].hasPrefix("loop=") ? Int(fields[5].dropFirst(5)) : nil, rgbaSHA256: fields[5],
                alphaSHA256: fields[6] == "-" ? nil : fields[6])
        }
    }

    /// Each animated file's frames: duration in milliseconds as stored, and the SHA-256 of the
    /// composited RGBA canvas.
    static func frames() throws -> [String: [(durationMilliseconds: Int, sha256: String)]] {
        let text = try String(contentsOf: folder.appendingPathComponent("FRAMES.tsv"), encoding: .utf8)
        var frames: [String: [(Int, String)]] = [:]
        for line in text.split(separator: "\n").dropFirst() {
            let fields = line.split(separator: "\t").map(String.init)
            frames[fields[0], default: []].append((Int(fields[2]) ?? -1, fields[3]))
        }
        return frames
    }

    static func hash(_ bytes: [UInt8]) -> String {
        bytes.withUnsafeBytes { SHA256.hash($0) }.description
    }
}

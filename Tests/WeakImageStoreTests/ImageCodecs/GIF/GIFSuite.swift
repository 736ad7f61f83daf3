import Foundation

@testable import ImageCodecs

/// The files of `Tests/WeakImageStoreTests/Fixtures/gifsuite` and their references, made by
/// `Scripts/make-gifsuite.py`: `MANIFEST.tsv` (what each file is) and `FRAMES.tsv` (the SHA-256
/// of each composited frame, pixels of alpha 0 made 0, 0, 0, 0).
enum GIFSuite {
    /// One line of the manifest.
    struct Entry {
        enum Status: String {
            case ok, damaged, error
        }

        let file: String
        let status: Status
        let width: Int
        let height: Int
        let frameCount: Int
        let loopCount: Int
        /// Each frame's duration as played, in milliseconds.
        let durations: [Int]
    }

    static let folder = SharedTestData.packageRoot.appendingPathComponent(
        "Tests/WeakImageStoreTests/Fixtures/gifsuite")

    static func data(_ file: String) throws -> Data {
        try Data(contentsOf: folder.appendingPathComponent(file))
    }

    static func entries() throws -> [Entry] {
        try lines("MANIFEST.tsv").map { fields in
            let status = Entry.Status(rawValue: fields[1])!
            guard status != .error else {
                return Entry(
                    file: fields[0], status: status, width: 0, height: 0, frameCount: 0, loopCount: 0, durations: [])
            }
            return Entry(
                file: fields[0], status: status, width: Int(fields[2])!, height: Int(fields[3])!,
                frameCount: Int(fields[4])!, loopCount: Int(fields[5])!,
                durations: fields[6].split(separator: ",").map { Int($0)! })
        }
    }

    /// The reference hash of each file's frames, in order.
    static func frameHashes() throws -> [String: [String]] {
        var hashes: [String: [String]] = [:]
        for fields in try lines("FRAMES.tsv") { hashes[fields[0], default: []].append(fields[2]) }
        return hashes
    }

    /// The hash a frame is compared by: its RGBA8 pixels, those of alpha 0 made 0, 0, 0, 0.
    static func normalisedHash(_ bitmap: Bitmap) -> String {
        var pixels = bitmap.rgba8()
        for pixel in stride(from: 0, to: pixels.count, by: 4) where pixels[pixel + 3] == 0 {
            pixels.replaceSubrange(pixel..<pixel + 4, with: [0, 0, 0, 0])
        }
        return pixels.withUnsafeBytes { SHA256.hash($0) }.description
    }

    private static func lines(_ name: String) throws -> [[String]] {
        let text = try String(contentsOf: folder.appendingPathComponent(name), encoding: .utf8)
        return text.split(separator: "\n").dropFirst().map { $0.split(separator: "\t").map(String.init) }
    }
}

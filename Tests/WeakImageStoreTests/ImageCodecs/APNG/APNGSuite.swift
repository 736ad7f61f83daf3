import Foundation

@testable import ImageCodecs

/// The files of `Fixtures/apngsuite` and their references in its `MANIFEST.tsv`, made by
/// `Scripts/make-apngsuite.py` from apngdis's frames.
enum APNGSuite {
    /// One manifest row.
    struct Entry {
        let file: String
        /// `ok`, `damaged` or `error`.
        let status: String
        let width: Int
        let height: Int
        let frameCount: Int
        let loopCount: Int
        let durationsInMilliseconds: [Double]
        /// The expected PNGError case for an error, the damage's cause, or a browser rule.
        let detail: String
        /// The SHA-256 of each composited frame, alpha-0 pixels made 0,0,0,0.
        let digests: [String]
    }

    static let folder = SharedTestData.packageRoot.appendingPathComponent(
        "Tests/WeakImageStoreTests/Fixtures/apngsuite")

    /// The manifest's rows.
    static func entries() throws -> [Entry] {
        let text = try String(contentsOf: folder.appendingPathComponent("MANIFEST.tsv"), encoding: .utf8)
        return text.split(separator: "\n").dropFirst().map { line in
            let cells = line.split(separator: "\t", omittingEmptySubsequences: false).map(String.init)
            let list = { (cell: String) in cell.split(separator: ",").map(String.init) }
            return Entry(
                file: cells[0], status: cells[1], width: Int(cells[2]) ?? -1, height: Int(cells[3]) ?? -1,
                frameCount: Int(cells[4]) ?? -1, loopCount: Int(cells[5]) ?? -1,
                durationsInMilliseconds: list(cells[6]).compactMap(Double.init), detail: cells[7],
                digests: list(cells[8]))
        }
    }

    /// A suite file's bytes.
    static func data(_ file: String) throws -> Data {
        try Data(contentsOf: folder.appendingPathComponent(file))
    }

    /// The SHA-256 of a frame's pixels, alpha-0 pixels made 0,0,0,0 as in the manifest.
    static func digest(_ frame: Bitmap) -> String {
        var pixels = frame.pixels
        for start in stride(from: 0, to: pixels.count, by: 4) where pixels[start + 3] == 0 {
            pixels.replaceSubrange(start..<start + 4, with: [0, 0, 0, 0])
        }
        return pixels.withUnsafeBytes { SHA256.hash($0) }.description
    }

    /// The name of an error's case, as the manifest gives it.
    static func caseName(_ error: PNGError) -> String {
        Mirror(reflecting: error).children.first?.label ?? "\(error)"
    }

    /// Every frame of a cursor, and whether any was reported damaged.
    static func frames(_ cursor: inout AnimationFrameCursor) throws -> (frames: [Bitmap], isDamaged: Bool) {
        var frames: [Bitmap] = []
        var isDamaged = false
        while !cursor.isFinished {
            let result = try cursor.nextFrame()
            frames.append(result.image)
            isDamaged = isDamaged || result.isDamaged
        }
        return (frames, isDamaged)
    }
}

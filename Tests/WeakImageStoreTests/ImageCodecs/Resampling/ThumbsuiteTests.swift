import Foundation
import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

/// `PNGDecoder.decode(_:scale:maxPixelSize:)` against every row of the thumbsuite: exact area
/// averages in premultiplied alpha, within ±1 per premultiplied channel.
final class ThumbsuiteTests: XCTestCase {
    /// One row of `MANIFEST.tsv`.
    private struct Row {
        let file: String
        let width: Int
        let height: Int
        let maxPixelSize: Int
        let outWidth: Int
        let outHeight: Int
        let reference: String
    }

    private static func manifest() throws -> (folder: URL, rows: [Row]) {
        let folder = try SharedTestData.directory(named: "thumbsuite")
        let text = try String(contentsOf: folder.appendingPathComponent("MANIFEST.tsv"), encoding: .utf8)
        let rows = text.split(separator: "\n").dropFirst().compactMap { line -> Row? in
            let fields = line.split(separator: "\t").map(String.init)
            guard fields.count == 7, let width = Int(fields[1]), let height = Int(fields[2]),
                let maxPixelSize = Int(fields[3]), let outWidth = Int(fields[4]), let outHeight = Int(fields[5])
            else { return nil }
            return Row(
                file: fields[0], width: width, height: height, maxPixelSize: maxPixelSize, outWidth: outWidth,
                outHeight: outHeight, reference: fields[6]
            )
        }
        return (folder, rows)
    }

    func test_everyThumbsuiteRow_matchesTheExactAreaAverage_withinOne() throws {
        // Given
        let (folder, rows) = try Self.manifest()
        XCTAssertEqual(rows.count, 312, "MANIFEST.tsv should list 312 thumbnails")
        // Rows are grouped by file: each file is read and inflated once for all its sizes (the
        // multi-size path runs the same row stream and averager as the public single-size
        // call, which test_singleSizeDecode_equalsTheMultiSizeDecode compares), then released.
        let files = Dictionary(grouping: rows, by: \.file).sorted { $0.key < $1.key }
        let references = try SuiteReferences(folder: folder)
        XCTAssertEqual(files.count, 96, "the suite should have 96 input files")
        for (file, fileRows) in files {
            let data = try Data(contentsOf: folder.appendingPathComponent(file))
            // When
            let bitmaps: [Bitmap]
            do {
                bitmaps = try data.withUnsafeBytes { bytes throws(PNGError) in
                    try PNGDecoder().decode(bytes: bytes, scale: 1, maxPixelSizes: fileRows.map(\.maxPixelSize))
                }
            } catch {
                XCTFail("\(file): threw \(error)")
                continue
            }
            // Then
            for (row, bitmap) in zip(fileRows, bitmaps) {
                guard bitmap.width == row.outWidth, bitmap.height == row.outHeight else {
                    XCTFail(
                        "\(file) at \(row.maxPixelSize): \(bitmap.width)x\(bitmap.height), "
                            + "expected \(row.outWidth)x\(row.outHeight)"
                    )
                    continue
                }
                let reference = try references.pixels(row.reference)
                if let message = Self.firstDifference(bitmap, reference) {
                    XCTFail("\(file) at \(row.maxPixelSize): \(message)")
                }
            }
        }
    }

    func test_singleSizeDecode_equalsTheMultiSizeDecode() throws {
        // Given: a non-interlaced RGBA file with soft alpha, and an interlaced one
        let (folder, _) = try Self.manifest()
        for file in ["synth_alpha_1001x333.png", "synth_adam7_500x375.png"] {
            let data = try Data(contentsOf: folder.appendingPathComponent(file))
            // When
            let single = try [7, 100].map { try PNGDecoder().decode(data, scale: 1, maxPixelSize: $0) }
            let multiple = try data.withUnsafeBytes { bytes throws(PNGError) in
                try PNGDecoder().decode(bytes: bytes, scale: 1, maxPixelSizes: [7, 100])
            }
            // Then
            XCTAssertEqual(single.map(\.pixels), multiple.map(\.pixels), file)
            XCTAssertEqual(single.map(\.width), [7, 100], file)
        }
    }

    func test_thumbnailFormat_followsTheFullDecode() throws {
        // Given: one file of each output format
        let (folder, _) = try Self.manifest()
        for file in ["synth_tallgray_64x4000.png", "synth_graya_257x257.png", "synth_photo_640x480.png"] {
            let data = try Data(contentsOf: folder.appendingPathComponent(file))
            // When
            let full = try PNGDecoder().decode(data, scale: 2)
            let thumbnail = try PNGDecoder().decode(data, scale: 2, maxPixelSize: 16)
            // Then
            XCTAssertEqual(thumbnail.format, full.format, file)
            XCTAssertEqual(thumbnail.scale, 2, file)
        }
    }

    /// Where the bitmap, premultiplied, differs from the reference by more than 1, or `nil`.
    private static func firstDifference(_ bitmap: Bitmap, _ reference: [UInt8]) -> String? {
        let actual = bitmap.rgba8()
        guard actual.count == reference.count else {
            return "\(actual.count) RGBA bytes, the reference has \(reference.count)"
        }
        for pixel in 0..<(actual.count / 4) {
            let alpha = Int(actual[pixel &* 4 &+ 3])
            for channel in 0..<4 {
                let value = Int(actual[pixel &* 4 &+ channel])
                let premultiplied = channel == 3 ? alpha : (2 * value * alpha + 255) / 510
                guard abs(premultiplied - Int(reference[pixel &* 4 &+ channel])) > 1 else { continue }
                let expected = Array(reference[(pixel * 4)..<(pixel * 4 + 4)])
                return "first bad pixel (x \(pixel % bitmap.width), y \(pixel / bitmap.width)): "
                    + "straight \(Array(actual[(pixel * 4)..<(pixel * 4 + 4)])), premultiplied reference \(expected)"
            }
        }
        return nil
    }
}

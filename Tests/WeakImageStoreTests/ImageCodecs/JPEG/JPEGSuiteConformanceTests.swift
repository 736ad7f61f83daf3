import Foundation
import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

/// The decoder against the JPEG suite: libjpeg-turbo 2.1.5's pixels for every `ok` file at full
/// size and at 1/2, 1/4 and 1/8; the unsupported error for every `unsupported` file; an error
/// for every broken one in strict mode; libjpeg-turbo's pixels for the damaged ones (DAMAGED.tsv)
/// in the default mode.
final class JPEGSuiteConformanceTests: XCTestCase {
    func test_everyOkSuiteFile_matchesLibjpegTurboPixels_atFullSize() throws {
        // Given
        let entries = try JPEGTestFiles.manifest().filter { $0.status == "ok" }
        XCTAssertEqual(entries.count, 67, "MANIFEST.tsv should list 67 ok files")
        for entry in entries {
            // When
            let bitmap: Bitmap
            do {
                bitmap = try JPEGDecoder().decode(JPEGTestFiles.file(entry.name), scale: 1)
            } catch {
                XCTFail("\(entry.name): threw \(error)")
                continue
            }
            // Then
            guard bitmap.width == entry.width, bitmap.height == entry.height else {
                XCTFail("\(entry.name): \(bitmap.width)×\(bitmap.height), reference \(entry.width)×\(entry.height)")
                continue
            }
            let reference = try JPEGTestFiles.reference(entry.name)
            if let message = JPEGTestFiles.firstDifference(
                bitmap.rgba8(), reference, width: bitmap.width, name: entry.name)
            {
                XCTFail(message)
            }
        }
    }

    func test_everyOkSuiteFile_matchesLibjpegTurboPixels_atDCTScales() throws {
        // Given
        let okNames = Set(try JPEGTestFiles.manifest().filter { $0.status == "ok" }.map(\.name))
        let scaled = try JPEGTestFiles.scaledSizes().filter { okNames.contains($0.name) }
        XCTAssertEqual(scaled.count, 67 * 3)
        for (name, denominator, width, height) in scaled {
            let label = "\(name) at 1/\(denominator)"
            // When
            let bitmap: Bitmap
            do {
                bitmap = try JPEGDecoder().decodeScaled(
                    JPEGTestFiles.file(name), scale: 1, scaleDenominator: denominator
                ).bitmap
            } catch {
                XCTFail("\(label): threw \(error)")
                continue
            }
            // Then
            guard bitmap.width == width, bitmap.height == height else {
                XCTFail("\(label): \(bitmap.width)×\(bitmap.height), reference \(width)×\(height)")
                continue
            }
            let reference = try JPEGTestFiles.reference(name, denominator: denominator)
            if let message = JPEGTestFiles.firstDifference(bitmap.rgba8(), reference, width: width, name: label) {
                XCTFail(message)
            }
        }
    }

    func test_everyUnsupportedSuiteFile_throwsTheUnsupportedError() throws {
        let entries = try JPEGTestFiles.manifest().filter { $0.status == "unsupported" }
        XCTAssertEqual(entries.count, 5)
        for entry in entries {
            for denominator in [1, 8] {
                let error = JPEGTestFiles.decodingError(
                    try JPEGTestFiles.file(entry.name), scaleDenominator: denominator)
                XCTAssertEqual(
                    error?.isUnsupported, true, "\(entry.name) at 1/\(denominator): \(String(describing: error))")
            }
        }
    }

    func test_everyDamagedSuiteFile_matchesLibjpegTurboPixels_inDefaultMode_atEveryScale() throws {
        // Given: err_trunc_progressive.jpg ends before its last scans, so libjpeg-turbo block-smooths
        // it (jdcoefct.c decompress_smooth_data), and so does the decoder.
        let damaged = try JPEGTestFiles.damaged()
        XCTAssertEqual(
            damaged.map(\.name), ["err_trunc_entropy50.jpg", "err_trunc_progressive.jpg", "err_rst_wrong.jpg"])
        for (name, fullWidth, fullHeight) in damaged {
            for denominator in [1, 2, 4, 8] {
                let label = "\(name) at 1/\(denominator)"
                let (width, height) = (
                    (fullWidth + denominator - 1) / denominator, (fullHeight + denominator - 1) / denominator
                )
                // When
                let result: (bitmap: Bitmap, report: JPEGDecodeReport)
                do {
                    result = try JPEGDecoder().decodeScaled(
                        JPEGTestFiles.file(name), scale: 1, scaleDenominator: denominator)
                } catch {
                    XCTFail("\(label): threw \(error)")
                    continue
                }
                // Then
                XCTAssertTrue(result.report.isDamaged, "\(label): not reported as damaged")
                guard result.bitmap.width == width, result.bitmap.height == height else {
                    XCTFail("\(label): \(result.bitmap.width)×\(result.bitmap.height), reference \(width)×\(height)")
                    continue
                }
                let reference = try JPEGTestFiles.reference(name, denominator: denominator)
                if let message = JPEGTestFiles.firstDifference(
                    result.bitmap.rgba8(), reference, width: width, name: label)
                {
                    XCTFail(message)
                }
            }
        }
    }

    func test_damagedSuiteFiles_reportTheErrorStrictModeThrows() throws {
        for (name, _, _) in try JPEGTestFiles.damaged() {
            // Given
            let data = try JPEGTestFiles.file(name)
            // When
            let strictError = JPEGTestFiles.decodingError(data, strict: true)
            let report = try JPEGDecoder().decodeScaled(data, scale: 1, scaleDenominator: 1).report
            let result = try JPEGDecoder().decode(data, options: DecodeOptions(maxPixelSize: 16))
            // Then
            XCTAssertNotNil(strictError, "\(name) decoded in strict mode")
            XCTAssertEqual(report.defect, strictError, name)
            XCTAssertTrue(result.isDamaged, name)
            XCTAssertEqual(result.damage as? JPEGError, strictError, "\(name): the seam names the defect")
        }
    }

    func test_everyErrorSuiteFile_throwsInStrictMode() throws {
        let entries = try JPEGTestFiles.manifest().filter { $0.status == "error" }
        XCTAssertEqual(entries.count, 20)
        for entry in entries {
            for denominator in [1, 8] {
                let error = JPEGTestFiles.decodingError(
                    try JPEGTestFiles.file(entry.name), scaleDenominator: denominator)
                XCTAssertNotNil(error, "\(entry.name) at 1/\(denominator) decoded instead of throwing")
                XCTAssertEqual(error?.isUnsupported, false, "\(entry.name): \(String(describing: error))")
            }
        }
    }
}

import Foundation
import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

/// The exact error of every broken or unsupported suite file, and of hand-made broken files.
final class JPEGErrorTests: XCTestCase {
    private static let expectedErrors: [String: JPEGError] = [
        "testimgari.jpg": .unsupportedProcess(.arithmeticCoding(sofMarker: 0xC9)),
        "testorig12.jpg": .unsupportedProcess(.samplePrecision(12)),
        "rose_arith.jpg": .unsupportedProcess(.arithmeticCoding(sofMarker: 0xC9)),
        "rose_arith_prog.jpg": .unsupportedProcess(.arithmeticCoding(sofMarker: 0xCA)),
        "lossless.jpg": .unsupportedProcess(.lossless(sofMarker: 0xC3)),
        "err_fractional_sampling.jpg": .fractionalSampling(componentID: 2),
        "err_not_jpeg_png.jpg": .notAJPEG,
        "err_empty.jpg": .notAJPEG,
        "err_soi_only.jpg": .truncated(offset: 2),
        "err_trunc_entropy50.jpg": .truncated(offset: 609),
        "err_trunc_progressive.jpg": .truncated(offset: 1398),
        "err_trunc_in_dqt.jpg": .truncated(offset: 20),
        "err_trunc_in_sof.jpg": .truncated(offset: 158),
        "err_trunc_in_sos.jpg": .truncated(offset: 609),
        "err_sof_width0.jpg": .invalidDimensions(width: 0, height: 75),
        "err_sof_height0.jpg": .invalidDimensions(width: 113, height: 0),
        "err_sof_5components.jpg": .unsupportedComponentCount(5),
        "err_sampling0.jpg": .badSamplingFactors(componentID: 1, horizontal: 0, vertical: 2),
        "err_sampling5.jpg": .badSamplingFactors(componentID: 1, horizontal: 5, vertical: 2),
        "err_dht_oversubscribed.jpg": .badHuffmanTable(.huffmanDC, id: 0),
        "err_huff_undefined.jpg": .undefinedTable(.huffmanDC, id: 3),
        "err_dqt_undefined.jpg": .undefinedTable(.quantization, id: 3),
        // The FF 02 ends the scan data early: the rest of the scan would be padding.
        "err_marker_in_scan.jpg": .truncated(offset: 609),
        "err_rst_wrong.jpg": .missingRestartMarker(expected: 1, found: 0xD3, offset: 1743),
        "err_huge_60000x60000.jpg": .imageTooLarge(width: 60000, height: 60000, limit: .dimension(32768)),
    ]

    func test_everyBrokenOrUnsupportedSuiteFile_throwsItsExactError() throws {
        let entries = try JPEGTestFiles.manifest().filter { $0.status != "ok" }
        XCTAssertEqual(entries.count, 25)
        for entry in entries {
            guard let expected = Self.expectedErrors[entry.name] else {
                XCTFail("\(entry.name): no expected error in the table")
                continue
            }
            XCTAssertEqual(JPEGTestFiles.decodingError(try JPEGTestFiles.file(entry.name)), expected, entry.name)
        }
    }

    func test_hugeFrame_isRefusedByThePixelLimit_beforeAllocating() throws {
        // Given: a 60000 × 60000 frame and a decoder allowing that dimension
        let file = try JPEGTestFiles.file("err_huge_60000x60000.jpg")
        // When
        var thrown: JPEGError?
        do {
            _ = try JPEGDecoder(maximumDimension: 65535).decode(file, scale: 1)
        } catch {
            thrown = error
        }
        // Then
        XCTAssertEqual(thrown, .imageTooLarge(width: 60000, height: 60000, limit: .pixelCount(67_108_864)))
    }

    func test_frameWithinLimits_butTooLittleData_isRefusedBeforeAllocating() throws {
        // Given: rose113_q90.jpg with its SOF patched to 4000 × 4000 (250 000 blocks in 3 KB)
        var bytes = [UInt8](try JPEGTestFiles.file("rose113_q90.jpg"))
        let sof = try XCTUnwrap((0..<(bytes.count - 1)).first { bytes[$0] == 0xFF && bytes[$0 + 1] == 0xC0 })
        bytes[sof + 5] = 0x0F
        bytes[sof + 6] = 0xA0
        bytes[sof + 7] = 0x0F
        bytes[sof + 8] = 0xA0
        // When
        let error = JPEGTestFiles.decodingError(Data(bytes))
        // Then
        guard case .insufficientData(let blocks, _) = error else {
            return XCTFail("expected insufficientData, got \(String(describing: error))")
        }
        XCTAssertEqual(blocks, 500 * 500 + 2 * 250 * 250)
    }

    func test_everyCutOfAValidFile_throws() throws {
        // Given: a baseline and a progressive file cut at every length
        for name in ["rose113_q90.jpg", "rose_prog_420.jpg", "rose_restart_7b.jpg"] {
            let bytes = [UInt8](try JPEGTestFiles.file(name))
            let eoiOmittable = name != "rose_prog_420.jpg"
            for length in stride(from: 0, to: bytes.count - (eoiOmittable ? 2 : 0), by: 7) {
                // When
                let error = JPEGTestFiles.decodingError(Data(bytes[0..<length]))
                // Then
                XCTAssertNotNil(error, "\(name) cut to \(length) bytes decoded")
            }
        }
    }

    func test_secondSOI_isAnUnexpectedMarker() {
        let error = JPEGTestFiles.decodingError(Data([0xFF, 0xD8, 0xFF, 0xD8]))
        XCTAssertEqual(error, .unexpectedMarker(0xD8, offset: 2))
    }

    func test_endlessFillBytes_endAsATruncatedFile() {
        let error = JPEGTestFiles.decodingError(Data([0xFF, 0xD8] + [UInt8](repeating: 0xFF, count: 100_000)))
        XCTAssertEqual(error, .truncated(offset: 100_002))
    }

    func test_descriptions_areReadable() {
        XCTAssertEqual(
            JPEGError.missingRestartMarker(expected: 1, found: 0xD3, offset: 1743).description,
            "expected RST1 at byte 1743, found 0xD3"
        )
        XCTAssertEqual(
            JPEGError.unsupportedProcess(.arithmeticCoding(sofMarker: 0xC9)).description,
            "unsupported JPEG process: arithmetic coding (SOF marker 0xC9)"
        )
        for error in Self.expectedErrors.values { XCTAssertFalse(error.description.isEmpty) }
    }
}

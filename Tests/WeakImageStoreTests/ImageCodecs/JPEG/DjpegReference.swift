import Foundation
import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

/// An input and what libjpeg-turbo 2.1.5's `djpeg -dct int` (portable C code:
/// `JSIMD_FORCENONE=1`) made of it: whether it warned, and at 1/1, 1/2, 1/4 and 1/8 the output
/// size and the FNV-1a 64-bit hash of its pixels as RGBA8 (gray `v` as `v, v, v, 255`). The
/// scripts in `Scripts/` that make the cases print them in this form.
struct DjpegCase<Input: Sendable>: Sendable {
    var input: Input
    var warned: Bool
    var references: [(width: Int, height: Int, hash: UInt64)]

    init(_ input: Input, warned: Bool, _ references: [(Int, Int, UInt64)]) {
        self.input = input
        self.warned = warned
        self.references = references.map { (width: $0.0, height: $0.1, hash: $0.2) }
    }
}

/// A damaged copy of a suite file (JPEGDamagedFileTests).
typealias DamagedCase = DjpegCase<JPEGDamage>

/// A progressive file libjpeg block-smooths (JPEGBlockSmoothingTests).
typealias SmoothedCase = DjpegCase<SmoothingInput>

extension DjpegCase {
    /// Decodes `data` in the default mode at 1/1, 1/2, 1/4 and 1/8 and checks each size and
    /// pixel hash against djpeg's, and that the decoder reports damage exactly when
    /// `reportsDamage`.
    func assertDecodesLikeDjpeg(
        _ data: Data, reportsDamage: Bool, file: StaticString = #filePath, line: UInt = #line
    ) {
        XCTAssertEqual(references.count, 4, "\(input): one reference per scale", file: file, line: line)
        for (expected, denominator) in zip(references, [1, 2, 4, 8]) {
            let label = "\(input) at 1/\(denominator)"
            let result: (bitmap: Bitmap, report: JPEGDecodeReport)
            do {
                result = try JPEGDecoder().decodeScaled(data, scale: 1, scaleDenominator: denominator)
            } catch {
                XCTFail("\(label): threw \(error)", file: file, line: line)
                continue
            }
            XCTAssertEqual(result.bitmap.width, expected.width, label, file: file, line: line)
            XCTAssertEqual(result.bitmap.height, expected.height, label, file: file, line: line)
            XCTAssertEqual(fnv1a(result.bitmap.rgba8()), expected.hash, label, file: file, line: line)
            XCTAssertEqual(result.report.isDamaged, reportsDamage, "\(label): \(result.report)", file: file, line: line)
        }
    }
}

/// FNV-1a, 64 bits: how the references hash pixels.
func fnv1a(_ bytes: [UInt8]) -> UInt64 {
    var hash: UInt64 = 0xcbf2_9ce4_8422_2325
    for byte in bytes {
        hash = (hash ^ UInt64(byte)) &* 0x0000_0100_0000_01b3
    }
    return hash
}

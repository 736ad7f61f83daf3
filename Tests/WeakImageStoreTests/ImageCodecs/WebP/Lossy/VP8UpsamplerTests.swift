import XCTest

@testable import ImageCodecs

final class VP8UpsamplerTests: XCTestCase {
    /// libwebp 1.2.4's `VP8YUVToR/G/B` (yuv.h), written out plainly.
    private func reference(y: Int, u: Int, v: Int) -> [UInt8] {
        func multiplyHigh(_ value: Int, _ constant: Int) -> Int { (value * constant) >> 8 }
        func clip(_ value: Int) -> UInt8 { value & ~16383 == 0 ? UInt8(value >> 6) : value < 0 ? 0 : 255 }
        return [
            clip(multiplyHigh(y, 19077) + multiplyHigh(v, 26149) - 14234),
            clip(multiplyHigh(y, 19077) - multiplyHigh(u, 6419) - multiplyHigh(v, 13320) + 8708),
            clip(multiplyHigh(y, 19077) + multiplyHigh(u, 33050) - 17685), 255,
        ]
    }

    func test_everyLumaWithExtremeChroma_convertsAsLibwebp() {
        let chromaValues = [0, 1, 15, 16, 17, 127, 128, 200, 239, 240, 254, 255]
        for u in chromaValues {
            for v in chromaValues {
                // Given: flat chroma (upsampling keeps it), every luma value, vector and tail paths
                let width = 259
                let luma = (0..<width).map { UInt8($0 & 255) }
                let chromaU = [UInt8](repeating: UInt8(u), count: (width + 1) / 2)
                let chromaV = [UInt8](repeating: UInt8(v), count: (width + 1) / 2)
                var output = [UInt8](repeating: 0, count: 4 * width)
                var scratch = [UInt8](repeating: 0, count: 2 * width)

                // When
                VP8Upsampler.convertRow(
                    luma: luma, nearU: chromaU, nearV: chromaV, farU: chromaU, farV: chromaV, width: width,
                    output: &output, scratch: &scratch)

                // Then
                let expected = luma.flatMap { reference(y: Int($0), u: u, v: v) }
                XCTAssertEqual(output, expected, "u \(u), v \(v)")
            }
        }
    }
}

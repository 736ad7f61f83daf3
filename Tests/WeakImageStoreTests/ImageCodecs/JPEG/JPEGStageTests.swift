import ImageStoreTestSupport
import XCTest

@testable import ImageCodecs
@testable import WeakImageStore

/// The inverse DCTs, the upsampler, the colour converter, the orientation and the scaled
/// component sizes, each alone.
final class JPEGStageTests: XCTestCase {
    private func inverseDCT(size: Int, coefficients: [Int16], quantization: [Int16]) -> [UInt8] {
        var output = [UInt8](repeating: 0, count: size * size)
        coefficients.withUnsafeBufferPointer { block in
            quantization.withUnsafeBufferPointer { quant in
                JPEGInverseDCT.rangeLimit.withUnsafeBufferPointer { range in
                    output.withUnsafeMutableBufferPointer { out in
                        let (b, q, o, r) = (
                            block.baseAddress!, quant.baseAddress!, out.baseAddress!, range.baseAddress!
                        )
                        switch size {
                        case 8: JPEGInverseDCT.transform8x8(b, q, o, stride: 8, range: r)
                        case 4: JPEGInverseDCT.transform4x4(b, q, o, stride: 4, range: r)
                        case 2: JPEGInverseDCT.transform2x2(b, q, o, stride: 2, range: r)
                        default: JPEGInverseDCT.transform1x1(b, q, o, range: r)
                        }
                    }
                }
            }
        }
        return output
    }

    func test_inverseDCT_ofADCOnlyBlock_isFlat_atEverySize() {
        // DC 80 × quantizer 2 = 160 → 160 / 8 = 20 above mid-gray.
        var block = [Int16](repeating: 0, count: 64)
        block[0] = 80
        let quantization = [Int16](repeating: 2, count: 64)
        for size in [8, 4, 2, 1] {
            XCTAssertEqual(
                inverseDCT(size: size, coefficients: block, quantization: quantization),
                Array(repeating: 148, count: size * size), "size \(size)")
        }
    }

    func test_inverseDCT_ofAHorizontalCosine_matchesTheFloatingPointTransform() {
        // Given: coefficient (u = 1, v = 0) = 100
        var block = [Int16](repeating: 0, count: 64)
        block[1] = 100
        let output = inverseDCT(size: 8, coefficients: block, quantization: Array(repeating: 1, count: 64))
        // Then: each column is 128 + 100/4 · √½ · cos((2x + 1)π/16), within rounding
        for x in 0..<8 {
            let exact = 128 + 100.0 / 4 * 0.5.squareRoot() * cos(Double(2 * x + 1) * .pi / 16)
            XCTAssertEqual(Double(output[x]), exact, accuracy: 1, "x \(x)")
            XCTAssertEqual(output[56 + x], output[x], "rows are equal")
        }
    }

    func test_inverseDCTs_inVectorLanes_matchLibjpegs64BitArithmetic() {
        // Given: random blocks, sparse like photos' or dense, with coefficients and multipliers
        // small (the 16-bit paths), around the 8×8 fast path's 11-bit limit, or up to 16 bits
        // (the 64-bit paths, and the wrapping row pass)
        var random = SeededGenerator(seed: 24)
        let range = JPEGInverseDCT.rangeLimit
        for trial in 0..<20_000 {
            let magnitude = [4, 64, 300, 1023, 32767][trial % 5]
            let density = [2, 8, 64][trial % 3]
            var block = [Int16](repeating: 0, count: 64)
            for _ in 0..<density { block[random.int(in: 0...63)] = Int16(random.int(in: -magnitude...magnitude)) }
            let quantization = (0..<64).map { _ in
                Int16(truncatingIfNeeded: random.int(in: 1...[65535, 1, 2, 40, 40, 40, 40][trial % 7]))
            }
            for size in [8, 4, 2] {
                // When: each transform runs
                var vector = [UInt8](repeating: 0, count: size * size)
                var reference = vector
                block.withUnsafeBufferPointer { b in
                    quantization.withUnsafeBufferPointer { q in
                        range.withUnsafeBufferPointer { r in
                            let (b, q, r) = (b.baseAddress!, q.baseAddress!, r.baseAddress!)
                            vector.withUnsafeMutableBufferPointer { o in
                                if size == 8 {
                                    JPEGInverseDCT.transform8x8(b, q, o.baseAddress!, stride: 8, range: r)
                                } else if size == 4 {
                                    JPEGInverseDCT.transform4x4(b, q, o.baseAddress!, stride: 4, range: r)
                                } else {
                                    JPEGInverseDCT.transform2x2(b, q, o.baseAddress!, stride: 2, range: r)
                                }
                            }
                            reference.withUnsafeMutableBufferPointer { o in
                                if size == 8 {
                                    JPEGInverseDCT.transform8x8Wide(b, q, o.baseAddress!, stride: 8, range: r)
                                } else if size == 4 {
                                    JPEGInverseDCT.transform4x4Wide(b, q, o.baseAddress!, stride: 4, range: r)
                                } else {
                                    JPEGInverseDCT.transform2x2Wide(b, q, o.baseAddress!, stride: 2, range: r)
                                }
                            }
                        }
                    }
                }
                // Then: the same samples
                XCTAssertEqual(vector, reference, "trial \(trial), size \(size)")
                if vector != reference { return }
            }
        }
    }

    func test_inverseDCT_rangeLimit_wrapsLikeLibjpeg() {
        XCTAssertEqual(JPEGInverseDCT.rangeLimit[0], 128)
        XCTAssertEqual(JPEGInverseDCT.rangeLimit[127], 255)
        XCTAssertEqual(JPEGInverseDCT.rangeLimit[300], 255)
        XCTAssertEqual(JPEGInverseDCT.rangeLimit[600], 0)
        XCTAssertEqual(JPEGInverseDCT.rangeLimit[1023], 127)
    }

    func test_fancyHorizontalUpsampling_weighsNeighboursThreeToOne() {
        let samples: [UInt8] = [0, 100, 200]
        let row = samples.withUnsafeBufferPointer { input in
            let upsampler = JPEGUpsampler(
                samples: input.baseAddress!, stride: 3, width: 3, height: 1, horizontalExpansion: 2,
                verticalExpansion: 1,
                fancy: true
            )
            let scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: 32)
            defer { scratch.deallocate() }
            return Array(UnsafeBufferPointer(start: upsampler.row(0, outputWidth: 6, scratch: scratch), count: 6))
        }
        // (3a + b + 1) >> 2 to the left, (3a + b + 2) >> 2 to the right, edges repeated.
        XCTAssertEqual(row, [0, 25, 75, 125, 175, 200])
    }

    func test_fancyUpsamplingBothWays_matchesTheTriangleFilter_atEveryWidth() {
        // Given: random components 3...70 samples wide (the vector loops and their scalar tails)
        var random = SeededGenerator(seed: 7)
        for width in 3...70 {
            let height = 3
            let samples = (0..<(width * height)).map { _ in UInt8(random.int(in: 0...255)) }
            for y in 0..<(2 * height) {
                // When
                let row = samples.withUnsafeBufferPointer { input in
                    let upsampler = JPEGUpsampler(
                        samples: input.baseAddress!, stride: width, width: width, height: height,
                        horizontalExpansion: 2, verticalExpansion: 2, fancy: true)
                    let scratch = UnsafeMutablePointer<UInt8>.allocate(capacity: 2 * width + 4 * width + 16)
                    defer { scratch.deallocate() }
                    return Array(
                        UnsafeBufferPointer(
                            start: upsampler.row(y, outputWidth: 2 * width, scratch: scratch), count: 2 * width))
                }
                // Then: libjpeg's h2v2 filter, column sums 3 × nearer row + farther row, then
                // 3 × own sum + neighbour's, edges repeated, rounding 8 left and 7 right
                let near = min(y / 2, height - 1)
                let far = y % 2 == 0 ? max(near - 1, 0) : min(near + 1, height - 1)
                let sums = (0..<width).map { 3 * Int(samples[near * width + $0]) + Int(samples[far * width + $0]) }
                let expected = (0..<(2 * width)).map { x -> UInt8 in
                    let column = x / 2
                    let neighbour = x % 2 == 0 ? max(column - 1, 0) : min(column + 1, width - 1)
                    return UInt8((3 * sums[column] + sums[neighbour] + (x % 2 == 0 ? 8 : 7)) >> 4)
                }
                XCTAssertEqual(row, expected, "width \(width), row \(y)")
            }
        }
    }

    func test_narrowComponents_andScaleOneEighth_replicate() {
        let samples: [UInt8] = [10, 20]
        samples.withUnsafeBufferPointer { input in
            let narrow = JPEGUpsampler(
                samples: input.baseAddress!, stride: 2, width: 2, height: 1, horizontalExpansion: 2,
                verticalExpansion: 2,
                fancy: true
            )
            XCTAssertEqual(narrow.method, .replicate(horizontal: 2, vertical: 2))
            let unfancy = JPEGUpsampler(
                samples: input.baseAddress!, stride: 2, width: 2, height: 1, horizontalExpansion: 1,
                verticalExpansion: 2,
                fancy: false
            )
            XCTAssertEqual(unfancy.method, .replicate(horizontal: 1, vertical: 2))
        }
    }

    func test_colorConversion_matchesLibjpegTables() {
        let converter = JPEGColorConverter(colorSpace: .yCbCr)
        let (y, cb, cr): ([UInt8], [UInt8], [UInt8]) = ([128, 76, 255], [128, 85, 0], [128, 255, 255])
        var output = [UInt8](repeating: 0, count: 12)
        y.withUnsafeBufferPointer { y in
            cb.withUnsafeBufferPointer { cb in
                cr.withUnsafeBufferPointer { cr in
                    converter.convert([y.baseAddress!, cb.baseAddress!, cr.baseAddress!], width: 3, into: &output)
                }
            }
        }
        // Gray stays gray; 76/85/255 is libjpeg's red (254, 0, 0) within its rounding.
        XCTAssertEqual(Array(output[0..<4]), [128, 128, 128, 255])
        XCTAssertEqual(Array(output[4..<8]), [254, 0, 0, 255])
        // 255 + 1.402·127 clips; 255 − 0.34414·(−128) − 0.71414·127 = 208.35; 255 − 1.772·128 = 28.2.
        XCTAssertEqual(Array(output[8..<12]), [255, 208, 28, 255])
    }

    func test_colorConversion_inVectorLanes_matchesLibjpegsFormula_forEveryChromaPair() {
        // Given: every (Cb, Cr) pair with lumas at and near the clamping edges, in rows whose
        // width is a multiple of the vector step (so no pixel takes the table path)
        let converter = JPEGColorConverter(colorSpace: .yCbCr)
        let cb = (0..<65536).map { UInt8($0 & 255) }
        let cr = (0..<65536).map { UInt8($0 >> 8) }
        var output = [UInt8](repeating: 0, count: 4 * 65536)
        func fixed(_ value: Double) -> Int { Int(value * 65536 + 0.5) }
        for luma in [0, 1, 2, 30, 64, 100, 128, 160, 200, 226, 253, 254, 255] {
            // When
            let y = [UInt8](repeating: UInt8(luma), count: 65536)
            y.withUnsafeBufferPointer { y in
                cb.withUnsafeBufferPointer { cb in
                    cr.withUnsafeBufferPointer { cr in
                        converter.convert(
                            [y.baseAddress!, cb.baseAddress!, cr.baseAddress!], width: 65536, into: &output)
                    }
                }
            }
            // Then: libjpeg's build_ycc_rgb_table arithmetic, clamped
            for index in 0..<65536 {
                let (blue, red) = (Int(cb[index]) - 128, Int(cr[index]) - 128)
                let expected = [
                    luma + ((fixed(1.40200) * red + 32768) >> 16),
                    luma + ((-fixed(0.34414) * blue - fixed(0.71414) * red + 32768) >> 16),
                    luma + ((fixed(1.77200) * blue + 32768) >> 16), 255,
                ].map { UInt8(min(max($0, 0), 255)) }
                guard Array(output[4 * index..<4 * index + 4]) == expected else {
                    return XCTFail("Y \(luma) Cb \(cb[index]) Cr \(cr[index]): \(output[4 * index..<4 * index + 4])")
                }
            }
        }
    }

    func test_inkToRGB_roundsHalvesUp_likeDjpeg() {
        for (ink, k) in [(0, 0), (255, 255), (128, 200), (1, 128), (77, 3)] {
            let expected = UInt8(Double(ink * k) / 255 + 0.5)
            XCTAssertEqual(JPEGColorConverter.inkToRGB(ink, k), expected, "\(ink) × \(k)")
        }
    }

    func test_orientation_transformsA3x2Image_asPILExifTranspose() {
        // Given: pixels numbered 0...5 in rows [0 1 2] [3 4 5]
        let pixels: [UInt8] = [0, 1, 2, 3, 4, 5]
        let expected: [Int: [UInt8]] = [
            1: [0, 1, 2, 3, 4, 5], 2: [2, 1, 0, 5, 4, 3], 3: [5, 4, 3, 2, 1, 0], 4: [3, 4, 5, 0, 1, 2],
            5: [0, 3, 1, 4, 2, 5], 6: [3, 0, 4, 1, 5, 2], 7: [5, 2, 4, 1, 3, 0], 8: [2, 5, 1, 4, 0, 3],
        ]
        for value in 1...8 {
            let result = JPEGOrientation(value: value).apply(pixels, width: 3, height: 2, bytesPerPixel: 1)
            XCTAssertEqual(result.pixels, expected[value], "orientation \(value)")
            XCTAssertEqual(result.width, value >= 5 ? 2 : 3)
        }
    }

    func test_scaledTransformSizes_followLibjpeg() throws {
        // 4:2:0: at 1/2 luma 4×4 and chroma 8×8; at 1/8 luma 1×1 and chroma 2×2.
        // 4:2:2: at 1/2 chroma stays 4×4 (its vertical ratio is 1).
        let bytes = [UInt8](try JPEGTestFiles.file("rose_q90.jpg"))
        let frame420 = try frame(of: bytes)
        XCTAssertEqual(sizes(frame420, 2), [4, 8, 8])
        XCTAssertEqual(sizes(frame420, 8), [1, 2, 2])
        let frame422 = try frame(of: [UInt8](try JPEGTestFiles.file("rose_422.jpg")))
        XCTAssertEqual(sizes(frame422, 2), [4, 4, 4])
    }

    private func frame(of bytes: [UInt8]) throws -> JPEGFrame {
        try bytes.withUnsafeBufferPointer { buffer in
            var file = try JPEGFileDecoder(
                bytes: buffer.baseAddress!, count: buffer.count, maximumPixelCount: 1 << 26, maximumDimension: 1 << 15
            )
            try file.run(headerOnly: true)
            return try XCTUnwrap(file.frame)
        }
    }

    private func sizes(_ frame: JPEGFrame, _ denominator: Int) -> [Int] {
        JPEGSamplePlanes.transformSizes(frame: frame, scaleDenominator: denominator)
    }
}

/// Converts rows of decoded components to output pixels, exactly as libjpeg-turbo 2.1.5's
/// `jdcolor.c` does: YCbCr with the fixed-point tables of `build_ycc_rgb_table` (16-bit
/// fractions, rounding by adding one half), YCCK through CMYK, and Adobe's inverted CMYK to RGB
/// with `R = round(C * K / 255)` as djpeg's `cmyk_to_rgb`.
struct JPEGColorConverter: Sendable {
    /// The colour space of the decoded components.
    enum ColorSpace: Sendable, Equatable {
        case gray, yCbCr, rgb, cmyk, ycck
    }

    let colorSpace: ColorSpace

    /// The tables of YCbCr conversion, 256 entries each, one after another, indexed by the chroma
    /// sample: Cr to R, round(1.402 × (cr − 128)); Cb to B, round(1.772 × (cb − 128)); Cr to G,
    /// scaled by 2^16, −0.71414 × (cr − 128); Cb to G, scaled by 2^16, plus one half,
    /// −0.34414 × (cb − 128) + 0.5. Built once, never freed: a converter is made per decode.
    private static let yccTables: ConstantTable<Int32> = {
        let scaleBits = 16
        let half = 1 << (scaleBits - 1)
        let fix = Self.fixed
        let crToRed = (0..<256).map { Int32(((fix(1.40200) * ($0 - 128)) + half) >> scaleBits) }
        let cbToBlue = (0..<256).map { Int32(((fix(1.77200) * ($0 - 128)) + half) >> scaleBits) }
        let crToGreen = (0..<256).map { Int32(-fix(0.71414) * ($0 - 128)) }
        let cbToGreen = (0..<256).map { Int32(-fix(0.34414) * ($0 - 128) + half) }
        return ConstantTable(crToRed + cbToBlue + crToGreen + cbToGreen)
    }()

    /// `min(max(v, 0), 255)` at index `v + 256`, for v in -256...511: built once, never freed.
    private static let clampTable = ConstantTable((0..<768).map { UInt8(min(max($0 - 256, 0), 255)) })

    /// The bytes one output pixel takes: 1 for gray, else 4 (RGBA).
    var bytesPerPixel: Int { colorSpace == .gray ? 1 : 4 }

    @inline(__always)
    private static func clamp(_ value: Int32) -> UInt8 {
        UInt8(truncatingIfNeeded: min(max(value, 0), 255))
    }

    /// Converts `width` pixels.
    ///
    /// - Parameters:
    ///   - rows: One row per component, each at least `width` samples.
    ///   - output: `width * bytesPerPixel` bytes.
    func convert(_ rows: [UnsafePointer<UInt8>], width: Int, into output: UnsafeMutablePointer<UInt8>) {
        switch colorSpace {
        case .gray:
            output.update(from: rows[0], count: width)
        case .rgb:
            let (red, green, blue) = (rows[0], rows[1], rows[2])
            for x in 0..<width {
                output[4 * x] = red[x]
                output[4 * x + 1] = green[x]
                output[4 * x + 2] = blue[x]
                output[4 * x + 3] = 255
            }
        case .yCbCr:
            let converted = Self.convertYCbCrInVectors(rows[0], rows[1], rows[2], width: width, into: output)
            // The last pixels, fewer than a vector's worth, through the tables.
            let tables = Self.yccTables.pointer
            let (crToRed, cbToBlue) = (tables, tables + 256)
            let (crToGreen, cbToGreen) = (tables + 512, tables + 768)
            let (luma, blueDifference, redDifference) = (rows[0], rows[1], rows[2])
            let clamp = Self.clampTable.pointer + 256
            // Four bytes a pixel written as one 32-bit store; `output` holds 4 * width bytes.
            let pixels = UnsafeMutableRawPointer(output)
            for x in converted..<width {
                let y = Int32(luma[x])
                let cb = Int(blueDifference[x])
                let cr = Int(redDifference[x])
                // Table clamping, as libjpeg's range_limit: no branches to mispredict. Every sum
                // lies in -256...511 (|Cr→R| ≤ 179, |Cb→B| ≤ 227, |G offset| ≤ 135).
                let red = UInt32(clamp[Int(y &+ crToRed[cr])])
                let green = UInt32(clamp[Int(y &+ ((cbToGreen[cb] &+ crToGreen[cr]) >> 16))])
                let blue = UInt32(clamp[Int(y &+ cbToBlue[cb])])
                let pixel = red | green << 8 | blue << 16 | 0xFF00_0000
                pixels.storeBytes(of: pixel.littleEndian, toByteOffset: 4 * x, as: UInt32.self)
            }
        case .cmyk:
            for x in 0..<width {
                let k = Int(rows[3][x])
                output[4 * x] = Self.inkToRGB(Int(rows[0][x]), k)
                output[4 * x + 1] = Self.inkToRGB(Int(rows[1][x]), k)
                output[4 * x + 2] = Self.inkToRGB(Int(rows[2][x]), k)
                output[4 * x + 3] = 255
            }
        case .ycck:
            let tables = Self.yccTables.pointer
            let (crToRed, cbToBlue) = (tables, tables + 256)
            let (crToGreen, cbToGreen) = (tables + 512, tables + 768)
            for x in 0..<width {
                let y = Int32(rows[0][x])
                let cb = Int(rows[1][x])
                let cr = Int(rows[2][x])
                let k = Int(rows[3][x])
                let cyan = 255 - Int(Self.clamp(y + crToRed[cr]))
                let magenta = 255 - Int(Self.clamp(y + ((cbToGreen[cb] + crToGreen[cr]) >> 16)))
                let yellow = 255 - Int(Self.clamp(y + cbToBlue[cb]))
                output[4 * x] = Self.inkToRGB(cyan, k)
                output[4 * x + 1] = Self.inkToRGB(magenta, k)
                output[4 * x + 2] = Self.inkToRGB(yellow, k)
                output[4 * x + 3] = 255
            }
        }
    }

    private static func fixed(_ value: Double) -> Int { Int(value * 65536 + 0.5) }

    /// Converts YCbCr to RGBA eight pixels at a time in 16-bit lanes, computing exactly what the
    /// tables hold, and returns how many pixels it converted: `width` rounded down to a multiple
    /// of 8.
    ///
    /// Each table entry is `round(f × c / 2^16)` for a chroma difference `c` in -128...127 and a
    /// 16.16 factor `f`. Writing `f` as a multiple of 2^16 plus a remainder `k` below 2^15 in
    /// magnitude, the multiple gives a whole multiple of `c` and the remainder
    /// `round(k × c / 2^16)`, which is `((2c × k) >> 16 + 1) >> 1` (the high half of a 16-bit
    /// product, `pmulhw` on x86). Green adds two products before rounding, so its remainders
    /// are summed in 32-bit lanes (`pmaddwd`).
    ///
    /// Out of line, so that the optimizer weighs this loop alone rather than inside
    /// ``convert(_:width:into:)`` with every colour space's loop.
    @inline(never)
    private static func convertYCbCrInVectors(
        _ luma: UnsafePointer<UInt8>, _ blueDifference: UnsafePointer<UInt8>, _ redDifference: UnsafePointer<UInt8>,
        width: Int, into output: UnsafeMutablePointer<UInt8>
    ) -> Int {
        // 1.40200 × 2^16 = 2^16 + 26 345; 1.77200 × 2^16 = 2^17 - 14 942;
        // -0.71414 × 2^16 = -2^16 + 18 734; -0.34414 × 2^16 = -22 554.
        @inline(__always) func roundedProduct(_ c: SIMD8<Int16>, _ k: Int32) -> SIMD8<Int16> {
            (JPEGVectorLanes.narrowed((JPEGVectorLanes.widened(c &<< 1) &* k) &>> 16) &+ 1) &>> 1
        }
        let pixels = UnsafeMutableRawPointer(output)
        var x = 0
        while x + 8 <= width {
            let y = JPEGVectorLanes.widened(bytes: luma + x)
            let cb = JPEGVectorLanes.widened(bytes: blueDifference + x) &- 128
            let cr = JPEGVectorLanes.widened(bytes: redDifference + x) &- 128
            let greenSum = JPEGVectorLanes.widened(cb) &* -22554 &+ JPEGVectorLanes.widened(cr) &* 18734
            let greenOffset = JPEGVectorLanes.narrowed((greenSum &+ (1 << 15)) &>> 16) &- cr
            // Every sum lies in -256...511, well inside 16 bits.
            let red = y &+ cr &+ roundedProduct(cr, 26345)
            let green = y &+ greenOffset
            let blue = y &+ (cb &<< 1) &+ roundedProduct(cb, -14942)
            // Clamped to bytes as they are packed, then interleaved: red with green and blue
            // with alpha, byte by byte, then those pairs, into RGBA.
            let redBlue = JPEGVectorLanes.packedToBytes(red, blue)
            let greenAlpha = JPEGVectorLanes.packedToBytes(green, SIMD8(repeating: 255))
            let redGreen = unsafeBitCast(interleaved(redBlue.lowHalf, greenAlpha.lowHalf), to: SIMD8<UInt16>.self)
            let blueAlpha = unsafeBitCast(interleaved(redBlue.highHalf, greenAlpha.highHalf), to: SIMD8<UInt16>.self)
            pixels.storeBytes(
                of: interleaved(redGreen.lowHalf, blueAlpha.lowHalf), toByteOffset: 4 * x, as: SIMD8<UInt16>.self)
            pixels.storeBytes(
                of: interleaved(redGreen.highHalf, blueAlpha.highHalf), toByteOffset: 4 * x + 16,
                as: SIMD8<UInt16>.self)
            x += 8
        }
        return x
    }

    /// The lanes of `a` and `b` alternating (`punpcklbw`/`punpcklwd` on x86).
    @inline(__always)
    private static func interleaved<Lane: SIMDScalar>(_ a: SIMD8<Lane>, _ b: SIMD8<Lane>) -> SIMD16<Lane> {
        SIMD16(
            a[0], b[0], a[1], b[1], a[2], b[2], a[3], b[3], a[4], b[4], a[5], b[5], a[6], b[6], a[7], b[7])
    }

    /// ``interleaved(_:_:)`` of four-lane halves.
    @inline(__always)
    private static func interleaved<Lane: SIMDScalar>(_ a: SIMD4<Lane>, _ b: SIMD4<Lane>) -> SIMD8<Lane> {
        SIMD8(a[0], b[0], a[1], b[1], a[2], b[2], a[3], b[3])
    }

    /// `round(ink * k / 255)` on Adobe's inverted values; never exactly a half, so integer
    /// division with an added 255/510 rounds the same way as djpeg's floating point.
    @inline(__always)
    static func inkToRGB(_ ink: Int, _ k: Int) -> UInt8 {
        UInt8(truncatingIfNeeded: (2 * ink * k + 255) / 510)
    }
}

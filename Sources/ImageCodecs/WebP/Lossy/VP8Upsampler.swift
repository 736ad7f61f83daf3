/// libwebp's default "fancy" upsampling of 4:2:0 chroma and its fixed-point YUV → RGB
/// conversion (14-bit constants, `dsp/yuv.h` in 1.2.4), fused into one pass per output row.
///
/// Each output pixel takes its chroma from the four nearest chroma samples weighted 9:3:3:1; the
/// chroma row nearer to the luma row is `near`, the other `far` (the same row at the top and
/// bottom of the image).
enum VP8Upsampler {
    @inline(__always)
    private static func clip(_ value: Int32) -> UInt8 {
        value & ~16383 == 0 ? UInt8(truncatingIfNeeded: value &>> 6) : (value < 0 ? 0 : 255)
    }

    /// Writes one RGBA pixel (alpha 255).
    @inline(__always)
    static func store(y: Int32, u: Int32, v: Int32, to pixel: UnsafeMutablePointer<UInt8>) {
        let luma = (y &* 19077) &>> 8
        let red = clip(luma &+ ((v &* 26149) &>> 8) &- 14234)
        let green = clip(luma &- ((u &* 6419) &>> 8) &- ((v &* 13320) &>> 8) &+ 8708)
        let blue = clip(luma &+ ((u &* 33050) &>> 8) &- 17685)
        let word = UInt32(red) | UInt32(green) << 8 | UInt32(blue) << 16 | 0xFF00_0000
        UnsafeMutableRawPointer(pixel).storeBytes(of: word.littleEndian, as: UInt32.self)
    }

    /// Upsamples one chroma plane for a row: `width` samples at `output`.
    @inline(__always)
    private static func upsample(
        near: UnsafePointer<UInt8>, far: UnsafePointer<UInt8>, width: Int, output: UnsafeMutablePointer<UInt8>
    ) {
        var nearLeft = Int32(near[0])
        var farLeft = Int32(far[0])
        output[0] = UInt8(truncatingIfNeeded: (3 &* nearLeft &+ farLeft &+ 2) &>> 2)
        let lastPair = (width - 1) >> 1
        var x = 1
        // Sixteen pairs at a time on 16-bit lanes; reads `near[x - 1 ... x + 15]`, within the row
        // while `x + 15 <= lastPair`, which is below the chroma width.
        while x + 15 <= lastPair {
            let nearLeft = VP8Lanes.widened(UnsafeRawPointer(near + x - 1).loadUnaligned(as: VP8Lanes.Bytes.self))
            let nearRight = VP8Lanes.widened(UnsafeRawPointer(near + x).loadUnaligned(as: VP8Lanes.Bytes.self))
            let farLeft = VP8Lanes.widened(UnsafeRawPointer(far + x - 1).loadUnaligned(as: VP8Lanes.Bytes.self))
            let farRight = VP8Lanes.widened(UnsafeRawPointer(far + x).loadUnaligned(as: VP8Lanes.Bytes.self))
            let sum = nearLeft &+ nearRight &+ farLeft &+ farRight &+ 8
            let left = (((sum &+ 2 &* (nearRight &+ farLeft)) &>> 3) &+ nearLeft) &>> 1
            let right = (((sum &+ 2 &* (nearLeft &+ farRight)) &>> 3) &+ nearRight) &>> 1
            // A 16-bit lane `left | right << 8` is the byte pair in memory order: the interleave
            // costs no shuffle.
            UnsafeMutableRawPointer(output + 2 * x - 1).storeBytes(of: left | right &<< 8, as: VP8Lanes.Wide.self)
            x += 16
        }
        nearLeft = Int32(near[x - 1])
        farLeft = Int32(far[x - 1])
        while x <= lastPair {
            let nearRight = Int32(near[x])
            let farRight = Int32(far[x])
            let sum = nearLeft &+ nearRight &+ farLeft &+ farRight &+ 8
            let leftDiagonal = (sum &+ 2 &* (nearRight &+ farLeft)) &>> 3
            let rightDiagonal = (sum &+ 2 &* (nearLeft &+ farRight)) &>> 3
            output[2 * x - 1] = UInt8(truncatingIfNeeded: (leftDiagonal &+ nearLeft) &>> 1)
            output[2 * x] = UInt8(truncatingIfNeeded: (rightDiagonal &+ nearRight) &>> 1)
            nearLeft = nearRight
            farLeft = farRight
            x += 1
        }
        if width & 1 == 0 {
            output[width - 1] = UInt8(truncatingIfNeeded: (3 &* nearLeft &+ farLeft &+ 2) &>> 2)
        }
    }

    /// Converts one row of `width` luma samples to RGBA at `output`; `scratch` holds `2 × width`
    /// bytes for the upsampled chroma.
    static func convertRow(
        luma: UnsafePointer<UInt8>, nearU: UnsafePointer<UInt8>, nearV: UnsafePointer<UInt8>,
        farU: UnsafePointer<UInt8>, farV: UnsafePointer<UInt8>, width: Int, output: UnsafeMutablePointer<UInt8>,
        scratch: UnsafeMutablePointer<UInt8>
    ) {
        let u = scratch
        let v = scratch + width
        upsample(near: nearU, far: farU, width: width, output: u)
        upsample(near: nearV, far: farV, width: width, output: v)
        var x = 0
        while x + 16 <= width {
            let pixels = words(
                y: UnsafeRawPointer(luma + x).loadUnaligned(as: SIMD16<UInt8>.self),
                u: UnsafeRawPointer(u + x).loadUnaligned(as: SIMD16<UInt8>.self),
                v: UnsafeRawPointer(v + x).loadUnaligned(as: SIMD16<UInt8>.self))
            // Little-endian words: R, G, B, A in memory order.
            UnsafeMutableRawPointer(output + 4 * x).storeBytes(of: pixels, as: SIMD16<UInt32>.self)
            x += 16
        }
        while x < width {
            store(y: Int32(luma[x]), u: Int32(u[x]), v: Int32(v[x]), to: output + 4 * x)
            x += 1
        }
    }

    typealias Lanes = SIMD16<Int16>

    @inline(__always)
    private static func widened(_ bytes: SIMD16<UInt8>) -> Lanes {
        Lanes(
            Int16(bytes[0]), Int16(bytes[1]), Int16(bytes[2]), Int16(bytes[3]), Int16(bytes[4]), Int16(bytes[5]),
            Int16(bytes[6]), Int16(bytes[7]), Int16(bytes[8]), Int16(bytes[9]), Int16(bytes[10]), Int16(bytes[11]),
            Int16(bytes[12]), Int16(bytes[13]), Int16(bytes[14]), Int16(bytes[15]))
    }

    /// `(byte × (256 × high + low)) >> 8` on 16-bit lanes: `byte × high + (byte × low) >> 8`,
    /// exact because the first product is a multiple of 256, and both fit 16 bits for the
    /// constants used (libwebp's 14-bit ones split this way), so no 32-bit multiply is needed.
    @inline(__always)
    private static func multiplied(_ value: Lanes, high: Int16, low: Int16) -> Lanes {
        // The low product may pass 32767: its shift must be logical, hence the mask.
        value &* high &+ ((value &* low) &>> 8 & 0xFF)
    }

    /// `VP8Clip8` on lanes: 0...16383 scaled to a byte, below 0 to 0, above to 255.
    @inline(__always)
    private static func clipped(_ value: Lanes) -> Lanes {
        let nonNegative = value & ~(value &>> 15)
        let excess = nonNegative &- 16383
        return (16383 &+ (excess & (excess &>> 15))) &>> 6
    }

    @inline(__always)
    private static func words(_ value: Lanes) -> SIMD16<UInt32> {
        SIMD16<UInt32>(
            UInt32(truncatingIfNeeded: value[0]), UInt32(truncatingIfNeeded: value[1]),
            UInt32(truncatingIfNeeded: value[2]), UInt32(truncatingIfNeeded: value[3]),
            UInt32(truncatingIfNeeded: value[4]), UInt32(truncatingIfNeeded: value[5]),
            UInt32(truncatingIfNeeded: value[6]), UInt32(truncatingIfNeeded: value[7]),
            UInt32(truncatingIfNeeded: value[8]), UInt32(truncatingIfNeeded: value[9]),
            UInt32(truncatingIfNeeded: value[10]), UInt32(truncatingIfNeeded: value[11]),
            UInt32(truncatingIfNeeded: value[12]), UInt32(truncatingIfNeeded: value[13]),
            UInt32(truncatingIfNeeded: value[14]), UInt32(truncatingIfNeeded: value[15]))
    }

    /// Blue's `VP8Clip8(sum − 17685)`, where `sum` (0...51922) fills 16 unsigned bits: compared
    /// unsigned (sign bits flipped: 17685 and 34068 become −15083 and 1300), since the
    /// difference may pass 32767.
    @inline(__always)
    private static func clippedBlue(_ sum: Lanes) -> Lanes {
        let flipped = sum ^ Int16.min
        let inRange = (sum &- 17685) &>> 6
        return inRange.replacing(with: 0, where: flipped .< Lanes(repeating: -15083))
            .replacing(with: 255, where: flipped .> Lanes(repeating: 1300))
    }

    /// The RGBA words (alpha 255) of sixteen pixels. Sums wrap at 16 bits, which is exact where
    /// the result fits them: red (−14234...30814) and green (−10953...27710); blue does not.
    @inline(__always)
    private static func words(y: SIMD16<UInt8>, u: SIMD16<UInt8>, v: SIMD16<UInt8>) -> SIMD16<UInt32> {
        let (y, u, v) = (widened(y), widened(u), widened(v))
        let luma = multiplied(y, high: 74, low: 133)
        let red = clipped(luma &+ multiplied(v, high: 102, low: 37) &- 14234)
        let green = clipped(luma &- multiplied(u, high: 25, low: 19) &- multiplied(v, high: 52, low: 8) &+ 8708)
        let blue = clippedBlue(luma &+ multiplied(u, high: 129, low: 26))
        return words(red) | words(green) &<< 8 | words(blue) &<< 16 | SIMD16<UInt32>(repeating: 0xFF00_0000)
    }
}

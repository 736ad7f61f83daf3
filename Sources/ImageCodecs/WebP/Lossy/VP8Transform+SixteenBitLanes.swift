/// The 4×4 inverse DCT on 16-bit lanes, two rows to a vector, as libwebp's SSE2 transform
/// computes it: every sum wraps at 16 bits there, so it does here for free, and the products
/// are `pmulhw`, which the 32-bit lanes of the exact transform lack without SSE4.1 (LLVM made
/// them scalar multiplies).
extension VP8Transform {
    typealias RowPair = SIMD8<Int16>

    /// `(value × constant) >> 16` in each lane: written widened so that LLVM emits `pmulhw`.
    @inline(__always)
    private static func multipliedHigh(_ value: RowPair, _ constant: Int32) -> RowPair {
        let v = value
        let product =
            (SIMD8<Int32>(
                Int32(v[0]), Int32(v[1]), Int32(v[2]), Int32(v[3]), Int32(v[4]), Int32(v[5]), Int32(v[6]), Int32(v[7]))
                &* constant) &>> 16
        return RowPair(
            Int16(truncatingIfNeeded: product[0]), Int16(truncatingIfNeeded: product[1]),
            Int16(truncatingIfNeeded: product[2]), Int16(truncatingIfNeeded: product[3]),
            Int16(truncatingIfNeeded: product[4]), Int16(truncatingIfNeeded: product[5]),
            Int16(truncatingIfNeeded: product[6]), Int16(truncatingIfNeeded: product[7]))
    }

    @inline(__always)
    private static func halves(_ value: RowPair) -> SIMD2<UInt64> { unsafeBitCast(value, to: SIMD2<UInt64>.self) }

    @inline(__always)
    private static func pair(_ low: UInt64, _ high: UInt64) -> RowPair {
        unsafeBitCast(SIMD2(low, high), to: RowPair.self)
    }

    /// One pass over four rows held as `[r0 | r1]` and `[r2 | r3]`, each lane a column;
    /// returns `[t0 | t1]` and `[t2 | t3]`.
    @inline(__always)
    private static func pass(_ rows01: RowPair, _ rows23: RowPair) -> (RowPair, RowPair) {
        let (r01, r23) = (halves(rows01), halves(rows23))
        // [a | b] = [r0 + r2 | r0 − r2]
        let sumAndDifference = pair(r01[0], r01[0]) &+ pair(r23[0], 0) &- pair(0, r23[0])
        // Both products of r1 and r3 at once: × √2 cos(π/8) is `mulhi(x, 20091) + x`, and
        // × √2 sin(π/8) is `mulhi(x, 35468 − 65536) + x`, as 35468 does not fit a signed lane.
        let odd = pair(r01[1], r23[1])
        let cosine = halves(multipliedHigh(odd, 20091) &+ odd)
        let sine = halves(multipliedHigh(odd, -30068) &+ odd)
        // [d | c] = [C1 r1 + C2 r3 | C2 r1 − C1 r3]
        let rotated = pair(cosine[0], sine[0]) &+ pair(sine[1], cosine[1]) &* RowPair(1, 1, 1, 1, -1, -1, -1, -1)
        let t32 = halves(sumAndDifference &- rotated)
        return (sumAndDifference &+ rotated, pair(t32[1], t32[0]))
    }

    /// `[t0 | t1]`, `[t2 | t3]` with lanes as columns → the same with lanes as rows.
    @inline(__always)
    private static func transposed(_ t01: RowPair, _ t23: RowPair) -> (RowPair, RowPair) {
        (
            RowPair(t01[0], t01[4], t23[0], t23[4], t01[1], t01[5], t23[1], t23[5]),
            RowPair(t01[2], t01[6], t23[2], t23[6], t01[3], t01[7], t23[3], t23[7])
        )
    }

    /// Adds `[row | next row]` to two rows of four pixels, clamped to 0...255.
    @inline(__always)
    private static func addRows(_ values: RowPair, to line: UnsafeMutablePointer<UInt8>, stride: Int) {
        let top = UnsafeRawPointer(line).loadUnaligned(as: SIMD4<UInt8>.self)
        let bottom = UnsafeRawPointer(line + stride).loadUnaligned(as: SIMD4<UInt8>.self)
        let sum =
            RowPair(
                Int16(top[0]), Int16(top[1]), Int16(top[2]), Int16(top[3]), Int16(bottom[0]), Int16(bottom[1]),
                Int16(bottom[2]), Int16(bottom[3])) &+ values
        let nonNegative = sum & ~(sum &>> 15)
        let excess = nonNegative &- 255
        let c = 255 &+ (excess & (excess &>> 15))
        let bytes = SIMD8<UInt8>(
            UInt8(truncatingIfNeeded: c[0]), UInt8(truncatingIfNeeded: c[1]), UInt8(truncatingIfNeeded: c[2]),
            UInt8(truncatingIfNeeded: c[3]), UInt8(truncatingIfNeeded: c[4]), UInt8(truncatingIfNeeded: c[5]),
            UInt8(truncatingIfNeeded: c[6]), UInt8(truncatingIfNeeded: c[7]))
        UnsafeMutableRawPointer(line).storeBytes(of: bytes.lowHalf, as: SIMD4<UInt8>.self)
        UnsafeMutableRawPointer(line + stride).storeBytes(of: bytes.highHalf, as: SIMD4<UInt8>.self)
    }

    /// Adds the inverse DCT of `input` (raster order) to the 4×4 pixels at `pixels`, every
    /// intermediate value wrapping at 16 bits.
    @inline(__always)
    static func addWrappingInverseDCT(
        _ input: UnsafePointer<Int16>, to pixels: UnsafeMutablePointer<UInt8>, stride: Int
    ) {
        let coefficients = UnsafeRawPointer(input)
        let (t01, t23) = pass(
            coefficients.loadUnaligned(as: RowPair.self),
            coefficients.loadUnaligned(fromByteOffset: 16, as: RowPair.self))
        let (x01, x23) = transposed(t01, t23)
        // The rounding term joins the DC lane before the second pass, as in libwebp.
        let (out01, out23) = pass(x01 &+ RowPair(4, 4, 4, 4, 0, 0, 0, 0), x23)
        let (rows01, rows23) = transposed(out01 &>> 3, out23 &>> 3)
        addRows(rows01, to: pixels, stride: stride)
        addRows(rows23, to: pixels + 2 * stride, stride: stride)
    }
}

/// The full 8×8 inverse DCT of photos' blocks in 16-bit lanes, the way libjpeg-turbo's SSE2
/// code keeps it: both passes widen their 16-bit inputs only inside the multiply-adds
/// (`pmaddwd` on x86), the workspace and the samples stay 16-bit, and both transposes are
/// 16-bit (one register a row, 24 unpack instructions each).
///
/// Exact for dequantized coefficients of 11 bits (valid data gives them but for rare extreme
/// blocks): the weights of one output add up to at most 61 214, so each column-pass sum stays
/// below 2^10 × 61 214 + 2^10 < 2^26 and each workspace value below 2^26 / 2^11 < 2^15, and
/// each row-pass sum with its rounding below 2^15 × 61 214 + 2^17 + 2^27 < 2^31. Other blocks
/// take ``transform8x8Wide(_:_:_:stride:range:)``.
extension JPEGInverseDCT {
    typealias Rows16 = (
        SIMD8<Int16>, SIMD8<Int16>, SIMD8<Int16>, SIMD8<Int16>, SIMD8<Int16>, SIMD8<Int16>, SIMD8<Int16>, SIMD8<Int16>
    )

    /// The full 8×8 inverse DCT.
    ///
    /// - Parameters:
    ///   - block: 64 coefficients in natural order.
    ///   - quantization: 64 multipliers in natural order.
    ///   - output: Where sample (0, 0) goes; 8 rows of 8 samples are written.
    ///   - stride: The distance between output rows.
    ///   - range: ``rangeLimit``'s storage.
    static func transform8x8(
        _ block: UnsafePointer<Int16>, _ quantization: UnsafePointer<Int16>,
        _ output: UnsafeMutablePointer<UInt8>, stride: Int, range: UnsafePointer<UInt8>
    ) {
        let coefficients = UnsafeRawPointer(block)
        let multipliers = UnsafeRawPointer(quantization)
        if isFlat(coefficients) {
            storeFlat(block, quantization, output, stride: stride, range: range, rows: UInt64.self)
            return
        }
        var outside11Bits = SIMD8<Int16>()
        @inline(__always) func dequantized(_ row: Int) -> SIMD8<Int16> {
            dequantizedRow(row, coefficients, multipliers, fittingIn: 11, outside: &outside11Bits)
        }
        let rows = (
            dequantized(0), dequantized(1), dequantized(2), dequantized(3), dequantized(4), dequantized(5),
            dequantized(6), dequantized(7)
        )
        guard JPEGVectorLanes.isZero(outside11Bits) else {
            return transform8x8Wide(block, quantization, output, stride: stride, range: range)
        }
        // Pass 1, the columns (lane = column), descaled by 2^11 with rounding. Shifting left by
        // 5 and right by 16 divides as shifting right by 11 (the sums stay below 2^26), and
        // shows the optimizer a 16-bit result, which it packs with `packssdw`.
        let workspace = transposed16(
            pairedPass(rows, rounding: Int32(1 << (constBits - pass1Bits - 1)), isColumnPass: true))
        // Pass 2, the rows (lane = row), and libjpeg's range limit, whose table maps the low 10
        // bits of a sample as a signed value plus 128, clamped to a byte: bits 18...27 of the
        // rounded sum as a signed 10-bit value, plus 128, clamped when packed (`packuswb`).
        let sampleRows = pairedPass(workspace, rounding: Int32(1 << (constBits + pass1Bits + 2)), isColumnPass: false)
        let columns = transposed16(sampleRows)
        @inline(__always) func bytes(_ samples: SIMD8<Int16>) -> SIMD8<UInt8> {
            SIMD8(truncatingIfNeeded: JPEGVectorLanes.clampedToByte(samples &+ 128))
        }
        store(
            (
                bytes(columns.0), bytes(columns.1), bytes(columns.2), bytes(columns.3), bytes(columns.4),
                bytes(columns.5), bytes(columns.6), bytes(columns.7)
            ), to: output, stride: stride)
    }

    /// One pass of the 8-point transform on 16-bit lanes, written as libjpeg-turbo's SSE2 code
    /// computes it rather than left to the optimizer: inputs 2 and 6, 1 and 7, 3 and 5 are
    /// interleaved once and each output's odd and rotated parts are sums of pair products (one
    /// `pmaddwd` per pair and half on x86); inputs 0 and 4 are scaled by 2^13 by placement; the
    /// rounding joins the even part once instead of each output. Left to itself, the optimizer
    /// multiplied some inputs alone and spilled more registers: this form is fewer instructions
    /// (BENCHMARKS.md). The constants are ``inverseDCT8OnNarrowLanes(_:)``'s, so every sum is
    /// the same modulo 2^32, and the descaling reads bits below 32: the column pass keeps bits
    /// 11...26 (shifted left by 5 and right by 16, which shows the optimizer a 16-bit result it
    /// packs with `packssdw`), the row pass bits 18...27 as a signed 10-bit value for the range
    /// limit.
    @inline(__always)
    private static func pairedPass(
        _ r: Rows16, rounding: Int32, isColumnPass: Bool
    ) -> Rows16 {
        @inline(__always) func half(_ high: Bool) -> Vectors4x8 {
            let p26 = interleaved(r.2, r.6, high: high)
            let p17 = interleaved(r.1, r.7, high: high)
            let p35 = interleaved(r.3, r.5, high: high)
            let round = SIMD4<Int32>(repeating: rounding)
            let scaled0 = scaledBy2To13(r.0, high: high) &+ round
            let scaled4 = scaledBy2To13(r.4, high: high)
            let even0 = scaled0 &+ scaled4
            let even1 = scaled0 &- scaled4
            let even2 = pairProducts(p26, 4433, -10704)
            let even3 = pairProducts(p26, 10703, 4433)
            let odd0 = pairProducts(p17, 2260, -11363) &+ pairProducts(p35, -6436, 9633)
            let odd1 = pairProducts(p17, 6437, 9633) &+ pairProducts(p35, -11362, 2261)
            let odd2 = pairProducts(p17, 9633, -6436) &+ pairProducts(p35, -2259, -11362)
            let odd3 = pairProducts(p17, 11363, 2260) &+ pairProducts(p35, 9633, 6437)
            let tmp10 = even0 &+ even3
            let tmp13 = even0 &- even3
            let tmp11 = even1 &+ even2
            let tmp12 = even1 &- even2
            return (
                tmp10 &+ odd3, tmp11 &+ odd2, tmp12 &+ odd1, tmp13 &+ odd0,
                tmp13 &- odd0, tmp12 &- odd1, tmp11 &- odd2, tmp10 &- odd3
            )
        }
        let (low, high) = (half(false), half(true))
        @inline(__always) func joined(_ a: SIMD4<Int32>, _ b: SIMD4<Int32>) -> SIMD8<Int16> {
            let sums = SIMD8(lowHalf: a, highHalf: b)
            return JPEGVectorLanes.narrowed(isColumnPass ? (sums &<< 5) &>> 16 : (sums &<< 4) &>> 22)
        }
        return (
            joined(low.0, high.0), joined(low.1, high.1), joined(low.2, high.2), joined(low.3, high.3),
            joined(low.4, high.4), joined(low.5, high.5), joined(low.6, high.6), joined(low.7, high.7)
        )
    }

    /// One half of `a` widened to 32-bit lanes and multiplied by 2^13, as libjpeg-turbo's SSE2
    /// code does it: each lane moved to the upper half of a 32-bit lane, then shifted right by 3
    /// (`punpcklwd` with zero and `psrad` on x86).
    @inline(__always)
    private static func scaledBy2To13(_ a: SIMD8<Int16>, high: Bool) -> SIMD4<Int32> {
        unsafeBitCast(interleaved(SIMD8(), a, high: high), to: SIMD4<Int32>.self) &>> 3
    }

    /// `a[2i] * k0 + a[2i + 1] * k1` for each i (`pmaddwd` on x86).
    @inline(__always)
    private static func pairProducts(_ a: SIMD8<Int16>, _ k0: Int16, _ k1: Int16) -> SIMD4<Int32> {
        let products = JPEGVectorLanes.widened(a) &* JPEGVectorLanes.widened(SIMD8(k0, k1, k0, k1, k0, k1, k0, k1))
        return products.evenHalf &+ products.oddHalf
    }

    typealias Vectors4x8 = (
        SIMD4<Int32>, SIMD4<Int32>, SIMD4<Int32>, SIMD4<Int32>, SIMD4<Int32>, SIMD4<Int32>, SIMD4<Int32>, SIMD4<Int32>
    )

    /// The 8×8 transpose of 16-bit rows in three rounds of interleaving pairs of rows: 16-bit
    /// lanes, then 32-bit, then 64-bit (`punpck{l,h}{wd,dq,qdq}` on x86).
    @inline(__always)
    static func transposed16(_ r: Rows16) -> Rows16 {
        let a = (
            interleaved(r.0, r.1, high: false), interleaved(r.0, r.1, high: true),
            interleaved(r.2, r.3, high: false), interleaved(r.2, r.3, high: true),
            interleaved(r.4, r.5, high: false), interleaved(r.4, r.5, high: true),
            interleaved(r.6, r.7, high: false), interleaved(r.6, r.7, high: true)
        )
        let b = (
            interleaved(a.0, a.2, lane: UInt32.self, high: false), interleaved(a.0, a.2, lane: UInt32.self, high: true),
            interleaved(a.1, a.3, lane: UInt32.self, high: false), interleaved(a.1, a.3, lane: UInt32.self, high: true),
            interleaved(a.4, a.6, lane: UInt32.self, high: false), interleaved(a.4, a.6, lane: UInt32.self, high: true),
            interleaved(a.5, a.7, lane: UInt32.self, high: false), interleaved(a.5, a.7, lane: UInt32.self, high: true)
        )
        return (
            interleaved(b.0, b.4, lane: UInt64.self, high: false), interleaved(b.0, b.4, lane: UInt64.self, high: true),
            interleaved(b.1, b.5, lane: UInt64.self, high: false), interleaved(b.1, b.5, lane: UInt64.self, high: true),
            interleaved(b.2, b.6, lane: UInt64.self, high: false), interleaved(b.2, b.6, lane: UInt64.self, high: true),
            interleaved(b.3, b.7, lane: UInt64.self, high: false), interleaved(b.3, b.7, lane: UInt64.self, high: true)
        )
    }

    /// The 16-bit lanes of one half of `a` and `b` (the low half, or the high one), alternating.
    @inline(__always)
    private static func interleaved(_ a: SIMD8<Int16>, _ b: SIMD8<Int16>, high: Bool) -> SIMD8<Int16> {
        high
            ? SIMD8(a[4], b[4], a[5], b[5], a[6], b[6], a[7], b[7])
            : SIMD8(a[0], b[0], a[1], b[1], a[2], b[2], a[3], b[3])
    }

    /// ``interleaved(_:_:high:)`` for 32-bit or 64-bit groups of lanes.
    @inline(__always)
    private static func interleaved<Group: FixedWidthInteger & SIMDScalar>(
        _ a: SIMD8<Int16>, _ b: SIMD8<Int16>, lane: Group.Type, high: Bool
    ) -> SIMD8<Int16> {
        if Group.bitWidth == 32 {
            let (x, y) = (unsafeBitCast(a, to: SIMD4<UInt32>.self), unsafeBitCast(b, to: SIMD4<UInt32>.self))
            let mixed = high ? SIMD4(x[2], y[2], x[3], y[3]) : SIMD4(x[0], y[0], x[1], y[1])
            return unsafeBitCast(mixed, to: SIMD8<Int16>.self)
        }
        let (x, y) = (unsafeBitCast(a, to: SIMD2<UInt64>.self), unsafeBitCast(b, to: SIMD2<UInt64>.self))
        return unsafeBitCast(high ? SIMD2(x[1], y[1]) : SIMD2(x[0], y[0]), to: SIMD8<Int16>.self)
    }
}

extension JPEGInverseDCT {
    /// Whether a block's AC coefficients are all zero (most chroma blocks of photos), so that it
    /// is flat: it transforms to one value, whatever its size.
    @inline(__always)
    static func isFlat(_ coefficients: UnsafeRawPointer) -> Bool {
        var anyAC = coefficients.loadUnaligned(as: SIMD8<Int16>.self) & SIMD8(0, -1, -1, -1, -1, -1, -1, -1)
        for row in 1..<8 { anyAC |= coefficients.loadUnaligned(fromByteOffset: 16 * row, as: SIMD8<Int16>.self) }
        return JPEGVectorLanes.isZero(anyAC)
    }

    /// The one sample a flat block transforms to: what both passes compute for it, in one step.
    @inline(__always)
    static func flatSample(
        _ block: UnsafePointer<Int16>, _ quantization: UnsafePointer<Int16>, range: UnsafePointer<UInt8>
    ) -> UInt8 {
        let dc = Int(Int32(truncatingIfNeeded: (Int(block[0]) * Int(quantization[0])) << pass1Bits))
        return range[descale(dc, pass1Bits + 3) & 1023]
    }

    /// Writes ``flatSample(_:_:range:)`` as a square of `Row.bitWidth / 8` samples, a row per
    /// store: `UInt64` for the 8×8 transform, `UInt32` for 4×4. Parameters as
    /// ``transform8x8(_:_:_:stride:range:)``.
    @inline(__always)
    static func storeFlat<Row: FixedWidthInteger & UnsignedInteger>(
        _ block: UnsafePointer<Int16>, _ quantization: UnsafePointer<Int16>,
        _ output: UnsafeMutablePointer<UInt8>, stride: Int, range: UnsafePointer<UInt8>, rows _: Row.Type
    ) {
        // `Row.max / 0xFF` has a 1 in every byte: the sample repeated across the row.
        let value = Row(flatSample(block, quantization, range: range)) &* (Row.max / 0xFF)
        for row in 0..<Row.bitWidth / 8 {
            UnsafeMutableRawPointer(output + row * stride).storeBytes(of: value, as: Row.self)
        }
    }
}

/// The inverse DCTs libjpeg-turbo 2.1.5 uses by default, reproduced bit for bit: the accurate
/// integer 8×8 transform (`jpeg_idct_islow`, the Loeffler–Ligtenberg–Moschytz algorithm with
/// 13-bit constants) and the reduced 4×4, 2×2 and 1×1 transforms of DCT-domain scaling
/// (`JPEGInverseDCT+Reduced.swift`).
///
/// Each reads 64 quantized coefficients in natural order and the dequantization multipliers,
/// and writes `size × size` samples with a row stride. Intermediate values are computed as
/// libjpeg's 64-bit `JLONG` gives them (in 32-bit SIMD lanes where that gives the same results:
/// for every valid file, and checked per block), the workspace between
/// the passes 32-bit like its `int`, and outputs are range-limited the way libjpeg's table does
/// (the 10-bit wrap included).
enum JPEGInverseDCT {
    /// The fraction bits of the fixed-point constants (libjpeg's `CONST_BITS`).
    static let constBits = 13
    /// The extra fraction bits the workspace keeps between the passes (libjpeg's `PASS1_BITS`).
    static let pass1Bits = 2

    /// libjpeg's post-IDCT range limit, indexed by the low 10 bits of a sample before the +128
    /// level shift.
    static let rangeLimit: [UInt8] = (0..<1024).map { index in
        switch index {
        case 0..<128: UInt8(index + 128)
        case 128..<512: 255
        case 512..<896: 0
        default: UInt8(index - 896)
        }
    }

    /// `value` divided by 2^`bits`, rounded half up (libjpeg's `DESCALE`).
    @inline(__always)
    static func descale(_ value: Int, _ bits: Int) -> Int {
        (value + (1 << (bits - 1))) >> bits
    }

    /// ``transform8x8(_:_:_:stride:range:)`` for any coefficients, the dequantized ones in 32-bit
    /// lanes: those of 16 bits through ``inverseDCT8OnNarrowLanes(_:)``, wider ones through
    /// libjpeg's 64-bit column pass. Called for blocks with a dequantized coefficient beyond 11
    /// bits (rare in valid data, common in damaged data), and the reference the fast path is
    /// tested against.
    @inline(never)
    static func transform8x8Wide(
        _ block: UnsafePointer<Int16>, _ quantization: UnsafePointer<Int16>,
        _ output: UnsafeMutablePointer<UInt8>, stride: Int, range: UnsafePointer<UInt8>
    ) {
        let coefficients = UnsafeRawPointer(block)
        let multipliers = UnsafeRawPointer(quantization)
        // Both factors are 16-bit (libjpeg's islow multipliers are), so LLVM multiplies them
        // with `pmullw`/`pmulhw` on x86.
        @inline(__always) func dequantized(_ row: Int) -> SIMD8<Int32> {
            JPEGVectorLanes.widened(int16s: coefficients + 16 * row)
                &* JPEGVectorLanes.widened(int16s: multipliers + 16 * row)
        }
        let rows = transformTwoPasses(
            (
                dequantized(0), dequantized(1), dequantized(2), dequantized(3), dequantized(4), dequantized(5),
                dequantized(6), dequantized(7)
            ))
        store(rows, to: output, stride: stride)
    }

    /// Writes eight rows of eight samples, `stride` apart.
    @inline(__always)
    static func store(_ rows: ByteRows8x8, to output: UnsafeMutablePointer<UInt8>, stride: Int) {
        @inline(__always) func store(_ row: Int, _ samples: SIMD8<UInt8>) {
            UnsafeMutableRawPointer(output + row &* stride).storeBytes(of: samples, as: SIMD8<UInt8>.self)
        }
        store(0, rows.0)
        store(1, rows.1)
        store(2, rows.2)
        store(3, rows.3)
        store(4, rows.4)
        store(5, rows.5)
        store(6, rows.6)
        store(7, rows.7)
    }

    /// Both passes of the 8×8 transform and the range limit, from the dequantized coefficient
    /// rows (lane = column) to the output rows (lane = column), as samples 0...255.
    @inline(__always)
    private static func transformTwoPasses(_ columns: Vectors8x8) -> ByteRows8x8 {
        let rounding = SIMD8<Int32>(repeating: 1 << (constBits - pass1Bits - 1))
        let pass1Shift = SIMD8<Int32>(repeating: Int32(constBits - pass1Bits))
        @inline(__always) func descaled(_ value: SIMD8<Int32>) -> SIMD8<Int32> {
            (value &+ rounding) &>> pass1Shift
        }
        // Pass 1: the columns, all eight at once in 32-bit lanes (lane = column). libjpeg
        // computes in 64 bits and keeps 32; for coefficients of valid 8-bit data every
        // intermediate fits in 32 bits, so the results are the same.
        let pass1: Vectors8x8
        if fitIn16Bits(columns) {
            let c = inverseDCT8OnNarrowLanes(narrowed(columns))
            pass1 = (
                descaled(c.0), descaled(c.1), descaled(c.2), descaled(c.3), descaled(c.4), descaled(c.5),
                descaled(c.6), descaled(c.7)
            )
        } else {
            pass1 = columnPass64(columns)
        }
        // Pass 2: the rows, all eight at once (lane = row), after transposing. Its 32-bit
        // lanes wrap where libjpeg's 64 bits do not, but the range limit reads only bits
        // 18...27 of each sum, which wrapping keeps.
        let pass2Rounding = SIMD8<Int32>(repeating: 1 << (constBits + pass1Bits + 2))
        let pass2Shift = SIMD8<Int32>(repeating: Int32(constBits + pass1Bits + 3))
        guard fitIn16Bits(pass1) else {
            // libjpeg's range limit: the low 10 bits as a signed value, plus 128, clamped.
            @inline(__always) func limit(_ value: SIMD8<Int32>) -> SIMD8<UInt8> {
                let sample = (value &+ pass2Rounding) &>> pass2Shift
                return SIMD8(truncatingIfNeeded: JPEGVectorLanes.clampedToByte(((sample &+ 512) & 1023) &- 384))
            }
            let rows = transposed(inverseDCT8(transposed(pass1)))
            return (
                limit(rows.0), limit(rows.1), limit(rows.2), limit(rows.3), limit(rows.4), limit(rows.5),
                limit(rows.6), limit(rows.7)
            )
        }
        return rowPassOnNarrowLanes(pass1, rounding: pass2Rounding, shift: pass2Shift)
    }

    /// The row pass of ``transformTwoPasses(_:)`` and its range limit for a workspace whose
    /// every value fits in 16 bits (every block of valid 8-bit data). The descaled row-pass sums
    /// fit in 16 bits whatever the workspace (a 32-bit sum shifted right by 18 bits), and so do
    /// the range limit's steps, so the transpose back to rows and the limit run on 16-bit lanes:
    /// eight vectors of one register each instead of two, and `pminsw`/`packuswb` on x86. The
    /// transpose before the row pass stays on 32-bit lanes: LLVM turns 16-bit lanes shuffled
    /// and then widened for the multiplies into scalar code, slower than the 32-bit transpose.
    @inline(__always)
    private static func rowPassOnNarrowLanes(
        _ pass1: Vectors8x8, rounding: SIMD8<Int32>, shift: SIMD8<Int32>
    ) -> ByteRows8x8 {
        @inline(__always) func narrow(_ value: SIMD8<Int32>) -> SIMD8<Int16> { SIMD8(truncatingIfNeeded: value) }
        let r = inverseDCT8OnNarrowLanes(transposed(narrowed(pass1)))
        @inline(__always) func descaled(_ value: SIMD8<Int32>) -> SIMD8<Int16> {
            narrow((value &+ rounding) &>> shift)
        }
        let rows = transposed(
            (
                descaled(r.0), descaled(r.1), descaled(r.2), descaled(r.3), descaled(r.4), descaled(r.5),
                descaled(r.6), descaled(r.7)
            ))
        // libjpeg's range limit: the low 10 bits as a signed value, plus 128, clamped.
        @inline(__always) func limit(_ sample: SIMD8<Int16>) -> SIMD8<UInt8> {
            SIMD8(truncatingIfNeeded: JPEGVectorLanes.clampedToByte(((sample &+ 512) & 1023) &- 384))
        }
        return (
            limit(rows.0), limit(rows.1), limit(rows.2), limit(rows.3), limit(rows.4), limit(rows.5), limit(rows.6),
            limit(rows.7)
        )
    }

    /// Whether every lane fits in 16 bits, so that ``inverseDCT8OnNarrowLanes(_:)`` applies. For
    /// the dequantized coefficients it also means that no column-pass sum can leave 32 bits (each
    /// output weighs its inputs by at most 61 214 in all, and 2^15 × 61 214 < 2^31). Every block
    /// of valid 8-bit data passes, in both passes; damaged data (an AC coefficient of 15 bits)
    /// may not.
    @inline(__always)
    private static func fitIn16Bits(_ c: Vectors8x8) -> Bool {
        let bias = SIMD8<Int32>(repeating: 1 << 15)
        let outside =
            (c.0 &+ bias) | (c.1 &+ bias) | (c.2 &+ bias) | (c.3 &+ bias) | (c.4 &+ bias) | (c.5 &+ bias)
            | (c.6 &+ bias) | (c.7 &+ bias)
        return !any(outside & SIMD8(repeating: ~0xFFFF) .!= .zero)
    }

    /// The column pass of `jpeg_idct_islow` in 64-bit arithmetic, as libjpeg computes it, for
    /// blocks whose sums would overflow the 32-bit lanes; each output is kept to 32 bits as
    /// libjpeg's `int` workspace keeps it. Off the hot path: only damaged data comes here.
    @inline(never)
    private static func columnPass64(_ c: Vectors8x8) -> Vectors8x8 {
        var rows = [SIMD8<Int32>](repeating: .zero, count: 8)
        for column in 0..<8 {
            let x = [c.0, c.1, c.2, c.3, c.4, c.5, c.6, c.7].map { Int($0[column]) }
            if x[1...].allSatisfy({ $0 == 0 }) {
                for row in 0..<8 { rows[row][column] = Int32(truncatingIfNeeded: x[0] << pass1Bits) }
                continue
            }
            let e1 = (x[2] + x[6]) * 4433
            let even2 = e1 - x[6] * 15137
            let even3 = e1 + x[2] * 6270
            let even0 = (x[0] + x[4]) << constBits
            let even1 = (x[0] - x[4]) << constBits
            let (tmp10, tmp13, tmp11, tmp12) = (even0 + even3, even0 - even3, even1 + even2, even1 - even2)
            let z5 = (x[7] + x[3] + x[5] + x[1]) * 9633
            let z1 = (x[7] + x[1]) * -7373
            let z2 = (x[5] + x[3]) * -20995
            let z3 = (x[7] + x[3]) * -16069 + z5
            let z4 = (x[5] + x[1]) * -3196 + z5
            let odd = [
                x[7] * 2446 + z1 + z3, x[5] * 16819 + z2 + z4, x[3] * 25172 + z2 + z3, x[1] * 12299 + z1 + z4,
            ]
            let sums = [
                tmp10 + odd[3], tmp11 + odd[2], tmp12 + odd[1], tmp13 + odd[0],
                tmp13 - odd[0], tmp12 - odd[1], tmp11 - odd[2], tmp10 - odd[3],
            ]
            for row in 0..<8 {
                rows[row][column] = Int32(truncatingIfNeeded: descale(sums[row], constBits - pass1Bits))
            }
        }
        return (rows[0], rows[1], rows[2], rows[3], rows[4], rows[5], rows[6], rows[7])
    }

    /// The accurate integer 8-point inverse DCT of `jpeg_idct_islow` (the Loeffler–Ligtenberg–Moschytz
    /// algorithm with 13-bit constants), lane by lane on eight vectors holding coefficients 0...7:
    /// the row pass of ``transform8x8(_:_:_:stride:range:)`` for inputs wider than 16 bits, which
    /// only damaged data gives.
    @inline(__always)
    private static func inverseDCT8(_ c: Vectors8x8) -> Vectors8x8 {
        // Fixed-point constants: round(x * 2^13).
        let fix0298631336: Int32 = 2446
        let fix0390180644: Int32 = 3196
        let fix0541196100: Int32 = 4433
        let fix0765366865: Int32 = 6270
        let fix0899976223: Int32 = 7373
        let fix1175875602: Int32 = 9633
        let fix1501321110: Int32 = 12299
        let fix1847759065: Int32 = 15137
        let fix1961570560: Int32 = 16069
        let fix2053119869: Int32 = 16819
        let fix2562915447: Int32 = 20995
        let fix3072711026: Int32 = 25172
        // The even part's rotation of coefficients 2 and 6 (0 and 4 join in the butterflies).
        let e1 = (c.2 &+ c.6) &* fix0541196100
        let even2 = e1 &+ c.6 &* -fix1847759065
        let even3 = e1 &+ c.2 &* fix0765366865
        // The odd part: coefficients 7, 5, 3, 1.
        let z1 = c.7 &+ c.1
        let z2 = c.5 &+ c.3
        let z3 = c.7 &+ c.3
        let z4 = c.5 &+ c.1
        let z5 = (z3 &+ z4) &* fix1175875602
        let z1Scaled = z1 &* -fix0899976223
        let z2Scaled = z2 &* -fix2562915447
        let z3Scaled = z3 &* -fix1961570560 &+ z5
        let z4Scaled = z4 &* -fix0390180644 &+ z5
        let odd0 = c.7 &* fix0298631336 &+ z1Scaled &+ z3Scaled
        let odd1 = c.5 &* fix2053119869 &+ z2Scaled &+ z4Scaled
        let odd2 = c.3 &* fix3072711026 &+ z2Scaled &+ z3Scaled
        let odd3 = c.1 &* fix1501321110 &+ z1Scaled &+ z4Scaled
        return butterflies(c.0, c.4, even2: even2, even3: even3, odd: (odd0, odd1, odd2, odd3))
    }

    /// ``inverseDCT8(_:)`` for inputs that fit in 16 bits (every block of valid 8-bit data, in
    /// both passes), passed through ``narrowed(_:)``; the same results: each output is written
    /// as a sum of input × constant products (the constants of ``inverseDCT8(_:)`` combined, as
    /// libjpeg-turbo's SIMD code combines them), which wrapping 32-bit arithmetic computes
    /// exactly as the factored form. With every input visibly sign-extended from 16 bits, LLVM
    /// turns each pair of products into one `pmaddwd` on x86 (a 32-bit lane multiply takes six
    /// instructions there without SSE4.1).
    @inline(__always)
    static func inverseDCT8OnNarrowLanes(_ c: Vectors8x8) -> Vectors8x8 {
        // The even part's rotation of coefficients 2 and 6 (0 and 4 join in the butterflies).
        let even2 = c.2 &* 4433 &+ c.6 &* -10704
        let even3 = c.2 &* 10703 &+ c.6 &* 4433
        // The odd part: coefficients 7, 5, 3, 1.
        let odd0 = (c.7 &* -11363 &+ c.1 &* 2260) &+ (c.3 &* -6436 &+ c.5 &* 9633)
        let odd1 = (c.5 &* 2261 &+ c.3 &* -11362) &+ (c.1 &* 6437 &+ c.7 &* 9633)
        let odd2 = (c.3 &* -2259 &+ c.5 &* -11362) &+ (c.7 &* -6436 &+ c.1 &* 9633)
        let odd3 = (c.1 &* 11363 &+ c.7 &* 2260) &+ (c.5 &* 6437 &+ c.3 &* 9633)
        return butterflies(c.0, c.4, even2: even2, even3: even3, odd: (odd0, odd1, odd2, odd3))
    }

    /// The additions both forms of the 8-point inverse DCT end with: the even part from
    /// coefficients 0 and 4 (scaled by 2^13) and the rotated pair `even2`, `even3` of
    /// coefficients 2 and 6, then each output as an even sum plus or minus an odd one.
    @inline(__always)
    private static func butterflies(
        _ c0: SIMD8<Int32>, _ c4: SIMD8<Int32>, even2: SIMD8<Int32>, even3: SIMD8<Int32>,
        odd: (SIMD8<Int32>, SIMD8<Int32>, SIMD8<Int32>, SIMD8<Int32>)
    ) -> Vectors8x8 {
        let even0 = (c0 &+ c4) &<< Int32(constBits)
        let even1 = (c0 &- c4) &<< Int32(constBits)
        let tmp10 = even0 &+ even3
        let tmp13 = even0 &- even3
        let tmp11 = even1 &+ even2
        let tmp12 = even1 &- even2
        return (
            tmp10 &+ odd.3, tmp11 &+ odd.2, tmp12 &+ odd.1, tmp13 &+ odd.0,
            tmp13 &- odd.0, tmp12 &- odd.1, tmp11 &- odd.2, tmp10 &- odd.3
        )
    }

    /// A row of dequantized coefficients in 16-bit lanes (`pmullw` on x86); the lanes whose
    /// product does not fit in `bits` bits are set in `outside`. A product fits when the high
    /// half of the full product (`pmulhw`) is the sign of the low half, both as its bit 15 and
    /// as its bit `bits - 1`.
    @inline(__always)
    static func dequantizedRow(
        _ row: Int, _ coefficients: UnsafeRawPointer, _ multipliers: UnsafeRawPointer, fittingIn bits: Int16,
        outside: inout SIMD8<Int16>
    ) -> SIMD8<Int16> {
        let coefficient = coefficients.loadUnaligned(fromByteOffset: 16 * row, as: SIMD8<Int16>.self)
        let multiplier = multipliers.loadUnaligned(fromByteOffset: 16 * row, as: SIMD8<Int16>.self)
        let low = coefficient &* multiplier
        let high = JPEGVectorLanes.narrowed(
            (JPEGVectorLanes.widened(coefficient) &* JPEGVectorLanes.widened(multiplier)) &>> 16)
        outside |= (high ^ (low &>> (bits - 1))) | (high ^ (low &>> 15))
        return low
    }

    /// The vectors sign-extended from their low 16 bits: no change to values that fit in 16 bits,
    /// but it tells the optimizer their upper bits are copies of the sign.
    @inline(__always)
    private static func narrowed(_ c: Vectors8x8) -> Vectors8x8 {
        @inline(__always) func narrow(_ value: SIMD8<Int32>) -> SIMD8<Int32> { (value &<< 16) &>> 16 }
        return (narrow(c.0), narrow(c.1), narrow(c.2), narrow(c.3), narrow(c.4), narrow(c.5), narrow(c.6), narrow(c.7))
    }

    typealias Vectors8x8 = (
        SIMD8<Int32>, SIMD8<Int32>, SIMD8<Int32>, SIMD8<Int32>, SIMD8<Int32>, SIMD8<Int32>, SIMD8<Int32>, SIMD8<Int32>
    )

    typealias ByteRows8x8 = (
        SIMD8<UInt8>, SIMD8<UInt8>, SIMD8<UInt8>, SIMD8<UInt8>, SIMD8<UInt8>, SIMD8<UInt8>, SIMD8<UInt8>, SIMD8<UInt8>
    )

    /// The 8×8 transpose of eight row vectors (32-bit or 16-bit lanes), in whole-vector
    /// shuffles rather than 64 lane moves: splitting the lanes of row pairs into even and odd
    /// rotates each element's 6-bit (row, column) index right by one bit, so three rounds swap
    /// row and column.
    @inline(__always)
    static func transposed<Lane: SIMDScalar>(
        _ rows: (
            SIMD8<Lane>, SIMD8<Lane>, SIMD8<Lane>, SIMD8<Lane>, SIMD8<Lane>, SIMD8<Lane>, SIMD8<Lane>, SIMD8<Lane>
        )
    ) -> (SIMD8<Lane>, SIMD8<Lane>, SIMD8<Lane>, SIMD8<Lane>, SIMD8<Lane>, SIMD8<Lane>, SIMD8<Lane>, SIMD8<Lane>) {
        typealias Rows = (
            SIMD8<Lane>, SIMD8<Lane>, SIMD8<Lane>, SIMD8<Lane>, SIMD8<Lane>, SIMD8<Lane>, SIMD8<Lane>, SIMD8<Lane>
        )
        @inline(__always) func round(_ v: Rows) -> Rows {
            let pair0 = SIMD16(lowHalf: v.0, highHalf: v.1)
            let pair1 = SIMD16(lowHalf: v.2, highHalf: v.3)
            let pair2 = SIMD16(lowHalf: v.4, highHalf: v.5)
            let pair3 = SIMD16(lowHalf: v.6, highHalf: v.7)
            return (
                pair0.evenHalf, pair1.evenHalf, pair2.evenHalf, pair3.evenHalf,
                pair0.oddHalf, pair1.oddHalf, pair2.oddHalf, pair3.oddHalf
            )
        }
        return round(round(round(rows)))
    }
}

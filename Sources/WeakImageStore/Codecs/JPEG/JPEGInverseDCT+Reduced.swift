/// The reduced inverse DCTs of DCT-domain scaling (libjpeg-turbo's `jidctred.c`): 4×4 for 1/2,
/// 2×2 for 1/4 and 1×1 for 1/8, bit for bit.
///
/// The 4×4 and 2×2 transforms compute in 32-bit vector lanes when every dequantized coefficient
/// they read fits in 15 bits (every block of valid 8-bit data): their column-pass sums then stay
/// below 2^31, where libjpeg's 64-bit `JLONG` gives the same values. Their row-pass sums may wrap,
/// but the range limit reads only bits 19...28 (4×4) or 20...29 (2×2) of each, which wrapping
/// 32-bit arithmetic keeps. Other blocks (damaged data) take the scalar 64-bit transforms.
extension JPEGInverseDCT {
    /// The reduced 4×4 inverse DCT of 1/2 scaling (`jpeg_idct_4x4`); parameters as
    /// ``transform8x8(_:_:_:stride:range:)``, writing 4 rows of 4 samples.
    ///
    /// Both passes run in vector lanes: the column pass on the eight columns at once (lane =
    /// column; column 4, which the transform never reads, rides along), the row pass on the four
    /// rows at once after an in-register transpose, and each row's four samples are packed into
    /// one 32-bit lane and stored at once, with no transpose back.
    static func transform4x4(
        _ block: UnsafePointer<Int16>, _ quantization: UnsafePointer<Int16>,
        _ output: UnsafeMutablePointer<UInt8>, stride: Int, range: UnsafePointer<UInt8>
    ) {
        let coefficients = UnsafeRawPointer(block)
        let multipliers = UnsafeRawPointer(quantization)
        if isFlat(coefficients) {
            let dc = Int(Int32(truncatingIfNeeded: (Int(block[0]) * Int(quantization[0])) << pass1Bits))
            let value = UInt32(range[descale(dc, pass1Bits + 3) & 1023]) &* 0x0101_0101
            for row in 0..<4 {
                UnsafeMutableRawPointer(output + row * stride).storeBytes(of: value, as: UInt32.self)
            }
            return
        }
        @inline(__always) func dequantized(_ row: Int) -> SIMD8<Int32> {
            JPEGVectorLanes.widened(int16s: coefficients + 16 * row)
                &* JPEGVectorLanes.widened(int16s: multipliers + 16 * row)
        }
        // Row 4 is never read.
        let (x0, x1, x2, x3) = (dequantized(0), dequantized(1), dequantized(2), dequantized(3))
        let (x5, x6, x7) = (dequantized(5), dequantized(6), dequantized(7))
        let outsideColumnRange =
            outside(bits: 15, x0) | outside(bits: 15, x1) | outside(bits: 15, x2) | outside(bits: 15, x3)
            | outside(bits: 15, x5) | outside(bits: 15, x6) | outside(bits: 15, x7)
        guard outsideColumnRange == .zero else {
            return transform4x4Wide(block, quantization, output, stride: stride, range: range)
        }
        // Pass 1, the columns: at most 2^14 × 77 910 < 2^31 before descaling. The inputs are
        // visibly 16-bit, so LLVM multiplies pairs with `pmaddwd` on x86.
        let (n0, n1, n2, n3) = (narrowed(x0), narrowed(x1), narrowed(x2), narrowed(x3))
        let (n5, n6, n7) = (narrowed(x5), narrowed(x6), narrowed(x7))
        let work = pass4(n0, n1, n2, n3, n5, n6, n7)
        let pass1Rounding = SIMD8<Int32>(repeating: 1 << (constBits - pass1Bits))
        let pass1Shift = SIMD8<Int32>(repeating: Int32(constBits - pass1Bits + 1))
        @inline(__always) func descaled(_ value: SIMD8<Int32>) -> SIMD8<Int32> {
            (value &+ pass1Rounding) &>> pass1Shift
        }
        // Pass 2, the rows, four at once (lane = row). Workspace values of valid data fit in 16
        // bits, and sign-extending them before the transpose lets LLVM multiply with `pmaddwd`.
        let workspace = (descaled(work.0), descaled(work.1), descaled(work.2), descaled(work.3))
        let outsideNarrowLanes =
            outside(bits: 16, workspace.0) | outside(bits: 16, workspace.1) | outside(bits: 16, workspace.2)
            | outside(bits: 16, workspace.3)
        if outsideNarrowLanes == .zero {
            rowPass4(
                (narrowed(workspace.0), narrowed(workspace.1), narrowed(workspace.2), narrowed(workspace.3)),
                output, stride: stride)
        } else {
            rowPass4(workspace, output, stride: stride)
        }
    }

    /// The row pass of `jpeg_idct_4x4` and its range limit, on the four rows at once (lane =
    /// row): the workspace rows are transposed as the 8×8 transform's are, padded with zero rows
    /// (lanes 4...7 then compute nothing used). Its sums may wrap: the range limit reads bits
    /// 19...28 only.
    @inline(__always)
    private static func rowPass4(
        _ workspace: (SIMD8<Int32>, SIMD8<Int32>, SIMD8<Int32>, SIMD8<Int32>), _ output: UnsafeMutablePointer<UInt8>,
        stride: Int
    ) {
        let zero = SIMD8<Int32>()
        let c = transposed((workspace.0, workspace.1, workspace.2, workspace.3, zero, zero, zero, zero))
        let sums = pass4(c.0, c.1, c.2, c.3, c.5, c.6, c.7)
        let rounding = SIMD8<Int32>(repeating: 1 << (constBits + pass1Bits + 3))
        let shift = SIMD8<Int32>(repeating: Int32(constBits + pass1Bits + 3 + 1))
        // libjpeg's range limit: the low 10 bits as a signed value, plus 128, clamped.
        @inline(__always) func limited(_ value: SIMD8<Int32>) -> SIMD8<Int32> {
            JPEGVectorLanes.clampedToByte(((((value &+ rounding) &>> shift) &+ 512) & 1023) &- 384)
        }
        // Each lane (a row) packs its four samples little-endian, left to right: no transpose back.
        let rows = (limited(sums.0) | limited(sums.1) &<< 8 | limited(sums.2) &<< 16 | limited(sums.3) &<< 24).lowHalf
        for row in 0..<4 {
            UnsafeMutableRawPointer(output + row * stride).storeBytes(
                of: UInt32(truncatingIfNeeded: rows[row]).littleEndian, as: UInt32.self)
        }
    }

    /// One pass of `jpeg_idct_4x4` lane by lane, before descaling: from inputs 0, 1, 2, 3, 5, 6, 7
    /// (coefficient rows, or transposed workspace columns) to outputs 0...3, in wrapping 32-bit
    /// arithmetic.
    @inline(__always)
    private static func pass4(
        _ x0: SIMD8<Int32>, _ x1: SIMD8<Int32>, _ x2: SIMD8<Int32>, _ x3: SIMD8<Int32>, _ x5: SIMD8<Int32>,
        _ x6: SIMD8<Int32>, _ x7: SIMD8<Int32>
    ) -> (SIMD8<Int32>, SIMD8<Int32>, SIMD8<Int32>, SIMD8<Int32>) {
        let tmp0 = x0 &<< Int32(constBits + 1)
        let tmp2 = x2 &* 15137 &+ x6 &* -6270
        let tmp10 = tmp0 &+ tmp2
        let tmp12 = tmp0 &- tmp2
        let odd0 = (x7 &* -1730 &+ x5 &* 11893) &+ (x3 &* -17799 &+ x1 &* 8697)
        let odd2 = (x7 &* -4176 &+ x5 &* -4926) &+ (x3 &* 7373 &+ x1 &* 20995)
        return (tmp10 &+ odd2, tmp12 &+ odd0, tmp12 &- odd0, tmp10 &- odd2)
    }

    /// The reduced 2×2 inverse DCT of 1/4 scaling (`jpeg_idct_2x2`); writes 2 rows of 2.
    ///
    /// The column pass runs on the eight columns at once (lane = column); the row pass, two rows
    /// of five products, in scalar wrapping 32-bit arithmetic.
    static func transform2x2(
        _ block: UnsafePointer<Int16>, _ quantization: UnsafePointer<Int16>,
        _ output: UnsafeMutablePointer<UInt8>, stride: Int, range: UnsafePointer<UInt8>
    ) {
        let coefficients = UnsafeRawPointer(block)
        let multipliers = UnsafeRawPointer(quantization)
        if isFlat(coefficients) {
            let dc = Int(Int32(truncatingIfNeeded: (Int(block[0]) * Int(quantization[0])) << pass1Bits))
            let value = range[descale(dc, pass1Bits + 3) & 1023]
            for row in 0..<2 { (output + row * stride).update(repeating: value, count: 2) }
            return
        }
        @inline(__always) func dequantized(_ row: Int) -> SIMD8<Int32> {
            JPEGVectorLanes.widened(int16s: coefficients + 16 * row)
                &* JPEGVectorLanes.widened(int16s: multipliers + 16 * row)
        }
        // Rows 2, 4 and 6 are never read.
        let (x0, x1, x3, x5, x7) = (dequantized(0), dequantized(1), dequantized(3), dequantized(5), dequantized(7))
        let outsideColumnRange =
            outside(bits: 15, x0) | outside(bits: 15, x1) | outside(bits: 15, x3) | outside(bits: 15, x5)
            | outside(bits: 15, x7)
        guard outsideColumnRange == .zero else {
            return transform2x2Wide(block, quantization, output, stride: stride, range: range)
        }
        // Pass 1, the columns: at most 2^14 × 85 759 < 2^31 before descaling.
        let (tmp10, tmp0) = reducedPass2(narrowed(x0), narrowed(x1), narrowed(x3), narrowed(x5), narrowed(x7))
        let rounding = SIMD8<Int32>(repeating: 1 << (constBits - pass1Bits + 1))
        let shift = SIMD8<Int32>(repeating: Int32(constBits - pass1Bits + 2))
        let work = ((tmp10 &+ tmp0 &+ rounding) &>> shift, (tmp10 &- tmp0 &+ rounding) &>> shift)
        // Pass 2, the rows: bits 20...29 of each sum, which wrapping keeps, give the sample.
        let sampleRounding = Int32(1) << (constBits + pass1Bits + 3 + 1)
        let sampleShift = Int32(constBits + pass1Bits + 3 + 2)
        @inline(__always) func row(_ w: SIMD8<Int32>, _ out: UnsafeMutablePointer<UInt8>) {
            let (tmp10, tmp0) = reducedPass2(w[0], w[1], w[3], w[5], w[7])
            out[0] = range[Int(((tmp10 &+ tmp0 &+ sampleRounding) &>> sampleShift) & 1023)]
            out[1] = range[Int(((tmp10 &- tmp0 &+ sampleRounding) &>> sampleShift) & 1023)]
        }
        row(work.0, output)
        row(work.1, output + stride)
    }

    /// One pass of `jpeg_idct_2x2` before descaling: the even and odd halves from inputs 0, 1,
    /// 3, 5, 7 (outputs 0 and 1 are their sum and difference), in wrapping 32-bit arithmetic.
    @inline(__always)
    private static func reducedPass2(
        _ x0: Int32, _ x1: Int32, _ x3: Int32, _ x5: Int32, _ x7: Int32
    ) -> (Int32, Int32) {
        (x0 &<< Int32(constBits + 2), (x7 &* -5906 &+ x5 &* 6967) &+ (x3 &* -10426 &+ x1 &* 29692))
    }

    /// ``reducedPass2(_:_:_:_:_:)`` on vector lanes.
    @inline(__always)
    private static func reducedPass2(
        _ x0: SIMD8<Int32>, _ x1: SIMD8<Int32>, _ x3: SIMD8<Int32>, _ x5: SIMD8<Int32>, _ x7: SIMD8<Int32>
    ) -> (SIMD8<Int32>, SIMD8<Int32>) {
        (x0 &<< Int32(constBits + 2), (x7 &* -5906 &+ x5 &* 6967) &+ (x3 &* -10426 &+ x1 &* 29692))
    }

    /// The 1×1 inverse DCT of 1/8 scaling (`jpeg_idct_1x1`): the DC coefficient alone.
    @inline(__always)
    static func transform1x1(
        _ block: UnsafePointer<Int16>, _ quantization: UnsafePointer<Int16>,
        _ output: UnsafeMutablePointer<UInt8>, range: UnsafePointer<UInt8>
    ) {
        let dc = Int(Int32(truncatingIfNeeded: Int(block[0]) * Int(quantization[0])))
        output[0] = range[descale(dc, 3) & 1023]
    }

    /// Whether a block's AC coefficients are all zero, so that it transforms to one value.
    @inline(__always)
    private static func isFlat(_ coefficients: UnsafeRawPointer) -> Bool {
        var anyAC = coefficients.loadUnaligned(as: SIMD8<Int16>.self) & SIMD8(0, -1, -1, -1, -1, -1, -1, -1)
        for row in 1..<8 { anyAC |= coefficients.loadUnaligned(fromByteOffset: 16 * row, as: SIMD8<Int16>.self) }
        // Two 64-bit tests: a vector `==` is a loop over the lanes here.
        let words = unsafeBitCast(anyAC, to: SIMD2<UInt64>.self)
        return words[0] | words[1] == 0
    }

    /// Nonzero in the lanes whose value lies outside -2^(bits - 1) ..< 2^(bits - 1): OR-ed over
    /// several vectors, zero when all of them fit in `bits` bits.
    @inline(__always)
    private static func outside(bits: Int32, _ value: SIMD8<Int32>) -> SIMD8<Int32> {
        (value &+ SIMD8(repeating: 1 << (bits - 1))) & SIMD8(repeating: ~((1 << bits) - 1))
    }

    /// The vector sign-extended from its low 16 bits: no change to values that fit in 16 bits,
    /// but it tells the optimizer their upper bits are copies of the sign.
    @inline(__always)
    private static func narrowed(_ value: SIMD8<Int32>) -> SIMD8<Int32> {
        (value &<< 16) &>> 16
    }

    /// ``transform4x4(_:_:_:stride:range:)`` in libjpeg's 64-bit arithmetic, column by column and
    /// row by row, for blocks whose dequantized coefficients do not fit in 15 bits (off the hot
    /// path: only damaged data comes here), and the reference the vector path is tested against.
    @inline(never)
    static func transform4x4Wide(
        _ block: UnsafePointer<Int16>, _ quantization: UnsafePointer<Int16>,
        _ output: UnsafeMutablePointer<UInt8>, stride: Int, range: UnsafePointer<UInt8>
    ) {
        let fix0211164243 = 1730
        let fix0509795579 = 4176
        let fix0601344887 = 4926
        let fix0765366865 = 6270
        let fix0899976223 = 7373
        let fix1061594337 = 8697
        let fix1451774981 = 11893
        let fix1847759065 = 15137
        let fix2172734803 = 17799
        let fix2562915447 = 20995
        var workspace = (SIMD16<Int32>(), SIMD16<Int32>())
        withUnsafeMutableBytes(of: &workspace) { raw in
            let work = raw.baseAddress!.assumingMemoryBound(to: Int32.self)
            // Pass 1: columns 0-3 and 5-7 into 4 rows of 8 (column 4 is never used).
            for column in 0..<8 where column != 4 {
                let input = block + column
                let quant = quantization + column
                if input[8] == 0 && input[16] == 0 && input[24] == 0 && input[40] == 0 && input[48] == 0
                    && input[56] == 0
                {
                    let dc = Int32(truncatingIfNeeded: (Int(input[0]) * Int(quant[0])) << pass1Bits)
                    for row in 0..<4 { work[row * 8 + column] = dc }
                    continue
                }
                let tmp0 = (Int(input[0]) * Int(quant[0])) << (constBits + 1)
                let tmp2 =
                    Int(input[16]) * Int(quant[16]) * fix1847759065
                    + Int(input[48]) * Int(quant[48]) * -fix0765366865
                let tmp10 = tmp0 + tmp2
                let tmp12 = tmp0 - tmp2
                let z1 = Int(input[56]) * Int(quant[56])
                let z2 = Int(input[40]) * Int(quant[40])
                let z3 = Int(input[24]) * Int(quant[24])
                let z4 = Int(input[8]) * Int(quant[8])
                let odd0 = z1 * -fix0211164243 + z2 * fix1451774981 + z3 * -fix2172734803 + z4 * fix1061594337
                let odd2 = z1 * -fix0509795579 + z2 * -fix0601344887 + z3 * fix0899976223 + z4 * fix2562915447
                let shift = constBits - pass1Bits + 1
                work[column] = Int32(truncatingIfNeeded: descale(tmp10 + odd2, shift))
                work[24 + column] = Int32(truncatingIfNeeded: descale(tmp10 - odd2, shift))
                work[8 + column] = Int32(truncatingIfNeeded: descale(tmp12 + odd0, shift))
                work[16 + column] = Int32(truncatingIfNeeded: descale(tmp12 - odd0, shift))
            }
            let shift = constBits + pass1Bits + 3 + 1
            for row in 0..<4 {
                let w = work + row * 8
                let out = output + row * stride
                if w[1] == 0 && w[2] == 0 && w[3] == 0 && w[5] == 0 && w[6] == 0 && w[7] == 0 {
                    let value = range[descale(Int(w[0]), pass1Bits + 3) & 1023]
                    for index in 0..<4 { out[index] = value }
                    continue
                }
                let tmp0 = Int(w[0]) << (constBits + 1)
                let tmp2 = Int(w[2]) * fix1847759065 + Int(w[6]) * -fix0765366865
                let tmp10 = tmp0 + tmp2
                let tmp12 = tmp0 - tmp2
                let z1 = Int(w[7])
                let z2 = Int(w[5])
                let z3 = Int(w[3])
                let z4 = Int(w[1])
                let odd0 = z1 * -fix0211164243 + z2 * fix1451774981 + z3 * -fix2172734803 + z4 * fix1061594337
                let odd2 = z1 * -fix0509795579 + z2 * -fix0601344887 + z3 * fix0899976223 + z4 * fix2562915447
                out[0] = range[descale(tmp10 + odd2, shift) & 1023]
                out[3] = range[descale(tmp10 - odd2, shift) & 1023]
                out[1] = range[descale(tmp12 + odd0, shift) & 1023]
                out[2] = range[descale(tmp12 - odd0, shift) & 1023]
            }
        }
    }

    /// ``transform2x2(_:_:_:stride:range:)`` in libjpeg's 64-bit arithmetic, for blocks whose
    /// dequantized coefficients do not fit in 15 bits (off the hot path: only damaged data comes
    /// here), and the reference the vector path is tested against.
    @inline(never)
    static func transform2x2Wide(
        _ block: UnsafePointer<Int16>, _ quantization: UnsafePointer<Int16>,
        _ output: UnsafeMutablePointer<UInt8>, stride: Int, range: UnsafePointer<UInt8>
    ) {
        let fix0720959822 = 5906
        let fix0850430095 = 6967
        let fix1272758580 = 10426
        let fix3624509785 = 29692
        var workspace = SIMD16<Int32>()
        withUnsafeMutableBytes(of: &workspace) { raw in
            let work = raw.baseAddress!.assumingMemoryBound(to: Int32.self)
            // Pass 1: the odd columns and column 0 into 2 rows of 8.
            for column in [0, 1, 3, 5, 7] {
                let input = block + column
                let quant = quantization + column
                if input[8] == 0 && input[24] == 0 && input[40] == 0 && input[56] == 0 {
                    let dc = Int32(truncatingIfNeeded: (Int(input[0]) * Int(quant[0])) << pass1Bits)
                    work[column] = dc
                    work[8 + column] = dc
                    continue
                }
                let tmp10 = (Int(input[0]) * Int(quant[0])) << (constBits + 2)
                let tmp0 =
                    Int(input[56]) * Int(quant[56]) * -fix0720959822
                    + Int(input[40]) * Int(quant[40]) * fix0850430095
                    + Int(input[24]) * Int(quant[24]) * -fix1272758580
                    + Int(input[8]) * Int(quant[8]) * fix3624509785
                let shift = constBits - pass1Bits + 2
                work[column] = Int32(truncatingIfNeeded: descale(tmp10 + tmp0, shift))
                work[8 + column] = Int32(truncatingIfNeeded: descale(tmp10 - tmp0, shift))
            }
            let shift = constBits + pass1Bits + 3 + 2
            for row in 0..<2 {
                let w = work + row * 8
                let out = output + row * stride
                if w[1] == 0 && w[3] == 0 && w[5] == 0 && w[7] == 0 {
                    let value = range[descale(Int(w[0]), pass1Bits + 3) & 1023]
                    out[0] = value
                    out[1] = value
                    continue
                }
                let tmp10 = Int(w[0]) << (constBits + 2)
                let tmp0 =
                    Int(w[7]) * -fix0720959822 + Int(w[5]) * fix0850430095 + Int(w[3]) * -fix1272758580
                    + Int(w[1]) * fix3624509785
                out[0] = range[descale(tmp10 + tmp0, shift) & 1023]
                out[1] = range[descale(tmp10 - tmp0, shift) & 1023]
            }
        }
    }
}

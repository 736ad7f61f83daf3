/// The reduced inverse DCTs of DCT-domain scaling (libjpeg-turbo's `jidctred.c`): 4×4 for 1/2,
/// 2×2 for 1/4 and 1×1 for 1/8, bit for bit.
///
/// The 4×4 and 2×2 transforms compute in vector lanes when every dequantized coefficient they
/// read fits in 11 bits (4×4) or 15 bits (2×2), as those of valid 8-bit data do: their
/// column-pass sums then stay below 2^31, where libjpeg's 64-bit `JLONG` gives the same values. Their row-pass sums may wrap,
/// but the range limit reads only bits 19...28 (4×4) or 20...29 (2×2) of each, which wrapping
/// 32-bit arithmetic keeps. Other blocks (damaged data; for the 4×4 transform, any coefficient
/// beyond 11 bits) take the scalar 64-bit transforms.
extension JPEGInverseDCT {
    /// The reduced 4×4 inverse DCT of 1/2 scaling (`jpeg_idct_4x4`); parameters as
    /// ``transform8x8(_:_:_:stride:range:)``, writing 4 rows of 4 samples.
    ///
    /// Both passes run in vector lanes: the column pass on the eight columns at once (lane =
    /// column; column 4, which the transform never reads, rides along), the row pass row by row
    /// (lane = output sample), with no transpose: each row's four samples are stored at once.
    static func transform4x4(
        _ block: UnsafePointer<Int16>, _ quantization: UnsafePointer<Int16>,
        _ output: UnsafeMutablePointer<UInt8>, stride: Int, range: UnsafePointer<UInt8>
    ) {
        let coefficients = UnsafeRawPointer(block)
        let multipliers = UnsafeRawPointer(quantization)
        if isFlat(coefficients) {
            storeFlat(block, quantization, output, stride: stride, range: range, rows: UInt32.self)
            return
        }
        // Dequantized coefficients of 11 bits keep each column-pass sum below 2^10 × 77 910 <
        // 2^27 and each workspace value below 2^15; wider ones take the 64-bit transform.
        var outside11Bits = SIMD8<Int16>()
        @inline(__always) func dequantized(_ row: Int) -> SIMD8<Int32> {
            JPEGVectorLanes.widened(
                dequantizedRow(row, coefficients, multipliers, fittingIn: 11, outside: &outside11Bits))
        }
        // Row 4 is never read.
        let (x0, x1, x2, x3) = (dequantized(0), dequantized(1), dequantized(2), dequantized(3))
        let (x5, x6, x7) = (dequantized(5), dequantized(6), dequantized(7))
        guard JPEGVectorLanes.isZero(outside11Bits) else {
            return transform4x4Wide(block, quantization, output, stride: stride, range: range)
        }
        // Pass 1, the columns. The inputs are visibly 16-bit, so LLVM multiplies pairs with
        // `pmaddwd` on x86. Shifting left by 4 and right by 16 divides as shifting right by 12
        // (the sums stay below 2^27) and shows a 16-bit result, packed with `packssdw`.
        let work = pass4(x0, x1, x2, x3, x5, x6, x7)
        let pass1Rounding = SIMD8<Int32>(repeating: 1 << (constBits - pass1Bits))
        @inline(__always) func workspaceRow(_ sum: SIMD8<Int32>) -> SIMD8<Int16> {
            JPEGVectorLanes.narrowed(((sum &+ pass1Rounding) &<< 4) &>> 16)
        }
        rowPass4(
            (workspaceRow(work.0), workspaceRow(work.1), workspaceRow(work.2), workspaceRow(work.3)), output,
            stride: stride)
    }

    /// The row pass of `jpeg_idct_4x4` and its range limit, row by row with lane = output
    /// sample: each sample is the workspace row's dot product with a row of the transform's
    /// matrix, taken as four dot products of adjacent pairs (one `pmaddwd` each on x86, the pair
    /// broadcast by one shuffle) and added. The range limit reads bits 19...28 of each sum only;
    /// the samples are clamped as they are packed to bytes, and each row's four stored at once.
    @inline(__always)
    private static func rowPass4(
        _ workspace: (SIMD8<Int16>, SIMD8<Int16>, SIMD8<Int16>, SIMD8<Int16>), _ output: UnsafeMutablePointer<UInt8>,
        stride: Int
    ) {
        // `pass4`'s weights of inputs 0...7 (4 unused) for outputs 0...3, by input pair: the even
        // input's four weights, then the odd input's.
        let weights01 = (SIMD4<Int32>(repeating: 1 << (constBits + 1)), SIMD4<Int32>(20995, 8697, -8697, -20995))
        let weights23 = (SIMD4<Int32>(15137, -15137, -15137, 15137), SIMD4<Int32>(7373, -17799, 17799, -7373))
        let weights45 = (SIMD4<Int32>(), SIMD4<Int32>(-4926, 11893, -11893, 4926))
        let weights67 = (SIMD4<Int32>(-6270, 6270, 6270, -6270), SIMD4<Int32>(-4176, -1730, 1730, 4176))
        @inline(__always) func samples(_ row: SIMD8<Int16>) -> SIMD4<Int32> {
            pairProducts(row, pair: 0, weights01) &+ pairProducts(row, pair: 1, weights23)
                &+ pairProducts(row, pair: 2, weights45) &+ pairProducts(row, pair: 3, weights67)
        }
        let rounding = SIMD8<Int32>(repeating: 1 << (constBits + pass1Bits + 3))
        // libjpeg's range limit: the low 10 bits of the sample (bits 19...28 of the rounded sum)
        // as a signed value, plus 128, clamped as it is packed.
        @inline(__always) func limited(_ sums: SIMD8<Int32>) -> SIMD8<Int16> {
            JPEGVectorLanes.narrowed(((sums &+ rounding) &<< 3) &>> 22) &+ 128
        }
        let upper = limited(SIMD8(lowHalf: samples(workspace.0), highHalf: samples(workspace.1)))
        let lower = limited(SIMD8(lowHalf: samples(workspace.2), highHalf: samples(workspace.3)))
        let bytes = unsafeBitCast(JPEGVectorLanes.packedToBytes(upper, lower), to: SIMD4<UInt32>.self)
        for row in 0..<4 {
            UnsafeMutableRawPointer(output + row * stride).storeBytes(of: bytes[row], as: UInt32.self)
        }
    }

    /// The products of a row's inputs `2 pair` and `2 pair + 1` with their weights for the four
    /// outputs, added: the pair is broadcast to every 32-bit lane, and the form lets LLVM use
    /// `pmaddwd` on x86.
    @inline(__always)
    private static func pairProducts(
        _ row: SIMD8<Int16>, pair: Int, _ weights: (even: SIMD4<Int32>, odd: SIMD4<Int32>)
    ) -> SIMD4<Int32> {
        let pairs = unsafeBitCast(row, to: SIMD4<UInt32>.self)
        let broadcast = unsafeBitCast(SIMD4<UInt32>(repeating: pairs[pair]), to: SIMD8<Int16>.self)
        let even = SIMD4<Int32>(Int32(broadcast[0]), Int32(broadcast[2]), Int32(broadcast[4]), Int32(broadcast[6]))
        let odd = SIMD4<Int32>(Int32(broadcast[1]), Int32(broadcast[3]), Int32(broadcast[5]), Int32(broadcast[7]))
        return even &* weights.even &+ odd &* weights.odd
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
            // Two byte stores a row: a 16-bit row would take three more instructions to build.
            let value = flatSample(block, quantization, range: range)
            for row in 0..<2 { (output + row * stride).update(repeating: value, count: 2) }
            return
        }
        var outside15Bits = SIMD8<Int16>()
        @inline(__always) func dequantized(_ row: Int) -> SIMD8<Int32> {
            JPEGVectorLanes.widened(
                dequantizedRow(row, coefficients, multipliers, fittingIn: 15, outside: &outside15Bits))
        }
        // Rows 2, 4 and 6 are never read.
        let (x0, x1, x3, x5, x7) = (dequantized(0), dequantized(1), dequantized(3), dequantized(5), dequantized(7))
        guard JPEGVectorLanes.isZero(outside15Bits) else {
            return transform2x2Wide(block, quantization, output, stride: stride, range: range)
        }
        // Pass 1, the columns: at most 2^14 × 85 759 < 2^31 before descaling.
        let (tmp10, tmp0) = reducedPass2(x0, x1, x3, x5, x7)
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

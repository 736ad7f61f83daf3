/// The inverse transforms of RFC 6386 §14.3–14.4 in libwebp's exact integer form: the Walsh–
/// Hadamard transform of the Y2 block, and the 4×4 inverse DCT added to the prediction.
enum VP8Transform {
    /// Turns the 16 Y2 coefficients into the DC coefficient of each luma block (every 16th value
    /// of `output`).
    static func inverseWHT(_ input: UnsafePointer<Int16>, into output: UnsafeMutablePointer<Int16>) {
        var columns = SIMD16<Int32>()
        for column in 0..<4 {
            let a0 = Int32(input[column]) &+ Int32(input[12 + column])
            let a1 = Int32(input[4 + column]) &+ Int32(input[8 + column])
            let a2 = Int32(input[4 + column]) &- Int32(input[8 + column])
            let a3 = Int32(input[column]) &- Int32(input[12 + column])
            columns[column] = a0 &+ a1
            columns[8 + column] = a0 &- a1
            columns[4 + column] = a3 &+ a2
            columns[12 + column] = a3 &- a2
        }
        for row in 0..<4 {
            let dc = columns[4 * row] &+ 3
            let a0 = dc &+ columns[4 * row + 3]
            let a1 = columns[4 * row + 1] &+ columns[4 * row + 2]
            let a2 = columns[4 * row + 1] &- columns[4 * row + 2]
            let a3 = dc &- columns[4 * row + 3]
            let block = output + 64 * row
            block[0] = Int16(truncatingIfNeeded: (a0 &+ a1) >> 3)
            block[16] = Int16(truncatingIfNeeded: (a3 &+ a2) >> 3)
            block[32] = Int16(truncatingIfNeeded: (a0 &- a1) >> 3)
            block[48] = Int16(truncatingIfNeeded: (a3 &- a2) >> 3)
        }
    }

    /// Four pixels widened, lane by lane (the generic conversion was left as a call).
    @inline(__always)
    private static func loadPixels(_ line: UnsafeMutablePointer<UInt8>) -> SIMD4<Int32> {
        SIMD4(Int32(line[0]), Int32(line[1]), Int32(line[2]), Int32(line[3]))
    }

    /// Each lane clamped to 0...255 (branch-free; `clamp(lowerBound:upperBound:)` is a generic
    /// loop) and stored as four pixels.
    @inline(__always)
    private static func storePixels(_ value: SIMD4<Int32>, _ line: UnsafeMutablePointer<UInt8>) {
        let nonNegative = value & ~(value &>> 31)
        let excess = nonNegative &- 255
        let clamped = 255 &+ (excess & (excess &>> 31))
        let word =
            UInt32(truncatingIfNeeded: clamped[0]) | UInt32(truncatingIfNeeded: clamped[1]) << 8
            | UInt32(truncatingIfNeeded: clamped[2]) << 16 | UInt32(truncatingIfNeeded: clamped[3]) << 24
        UnsafeMutableRawPointer(line).storeBytes(of: word.littleEndian, as: UInt32.self)
    }

    @inline(__always)
    private static func loadCoefficients(_ input: UnsafePointer<Int16>) -> SIMD4<Int32> {
        SIMD4(Int32(input[0]), Int32(input[1]), Int32(input[2]), Int32(input[3]))
    }

    /// `a × √2 × cos(π/8)`, in libwebp's fixed point.
    @inline(__always)
    private static func multiplyC1(_ value: SIMD4<Int32>) -> SIMD4<Int32> {
        ((value &* 20091) &>> 16) &+ value
    }

    /// `a × √2 × sin(π/8)`, in libwebp's fixed point.
    @inline(__always)
    private static func multiplyC2(_ value: SIMD4<Int32>) -> SIMD4<Int32> {
        (value &* 35468) &>> 16
    }

    /// Adds the inverse DCT of `input` (raster order) to the 4×4 pixels at `pixels`.
    ///
    /// With `wrapsTo16Bits` the intermediate values wrap as in libwebp's SSE2 transform, which
    /// dwebp uses for blocks with coefficients past the third; without, they are exact as in its
    /// C transform for the others. Both agree unless coefficients are huge (damaged files).
    @inline(__always)
    static func addInverseDCT(
        _ input: UnsafePointer<Int16>, to pixels: UnsafeMutablePointer<UInt8>, stride: Int, wrapsTo16Bits: Bool
    ) {
        if wrapsTo16Bits {
            addWrappingInverseDCT(input, to: pixels, stride: stride)
        } else {
            addExactInverseDCT(input, to: pixels, stride: stride)
        }
    }

    /// The inverse DCT on 32-bit lanes, where no intermediate value wraps.
    @inline(__always)
    private static func addExactInverseDCT(
        _ input: UnsafePointer<Int16>, to pixels: UnsafeMutablePointer<UInt8>, stride: Int
    ) {
        let row0 = loadCoefficients(input)
        let row1 = loadCoefficients(input + 4)
        let row2 = loadCoefficients(input + 8)
        let row3 = loadCoefficients(input + 12)
        // Vertical pass: each lane is a column.
        let a = row0 &+ row2
        let b = row0 &- row2
        let c = multiplyC2(row1) &- multiplyC1(row3)
        let d = multiplyC1(row1) &+ multiplyC2(row3)
        let t0 = a &+ d
        let t1 = b &+ c
        let t2 = b &- c
        let t3 = a &- d
        // Horizontal pass on the transposed values: lane i is output row i.
        let x0 = SIMD4(t0[0], t1[0], t2[0], t3[0]) &+ 4
        let x1 = SIMD4(t0[1], t1[1], t2[1], t3[1])
        let x2 = SIMD4(t0[2], t1[2], t2[2], t3[2])
        let x3 = SIMD4(t0[3], t1[3], t2[3], t3[3])
        let ha = x0 &+ x2
        let hb = x0 &- x2
        let hc = multiplyC2(x1) &- multiplyC1(x3)
        let hd = multiplyC1(x1) &+ multiplyC2(x3)
        let out0 = (ha &+ hd) &>> 3
        let out1 = (hb &+ hc) &>> 3
        let out2 = (hb &- hc) &>> 3
        let out3 = (ha &- hd) &>> 3
        // Unrolled: with a variable row the lanes were picked through a stack copy.
        addRow(SIMD4(out0[0], out1[0], out2[0], out3[0]), to: pixels)
        addRow(SIMD4(out0[1], out1[1], out2[1], out3[1]), to: pixels + stride)
        addRow(SIMD4(out0[2], out1[2], out2[2], out3[2]), to: pixels + 2 * stride)
        addRow(SIMD4(out0[3], out1[3], out2[3], out3[3]), to: pixels + 3 * stride)
    }

    @inline(__always)
    private static func addRow(_ values: SIMD4<Int32>, to line: UnsafeMutablePointer<UInt8>) {
        storePixels(loadPixels(line) &+ values, line)
    }

    /// Adds `(dc + 4) >> 3` to the 4×4 pixels at `pixels`: the inverse DCT of a DC-only block.
    @inline(__always)
    static func addInverseDC(_ dc: Int16, to pixels: UnsafeMutablePointer<UInt8>, stride: Int) {
        let value = (Int32(dc) &+ 4) >> 3
        for row in 0..<4 {
            let line = pixels + row * stride
            storePixels(loadPixels(line) &+ value, line)
        }
    }
}

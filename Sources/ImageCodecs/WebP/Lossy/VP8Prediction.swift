/// The intra predictors of RFC 6386 §12, writing into the reconstruction buffer, whose rows are
/// ``stride`` bytes apart and which holds the row above each block and the column to its left
/// (127 above the frame, 129 left of it, as libwebp fills them).
enum VP8Prediction {
    static let stride = 32

    @inline(__always)
    private static func average2(_ a: UInt8, _ b: UInt8) -> UInt8 {
        UInt8(truncatingIfNeeded: (UInt16(a) &+ UInt16(b) &+ 1) &>> 1)
    }

    @inline(__always)
    private static func average3(_ a: UInt8, _ b: UInt8, _ c: UInt8) -> UInt8 {
        UInt8(truncatingIfNeeded: (UInt16(a) &+ 2 &* UInt16(b) &+ UInt16(c) &+ 2) &>> 2)
    }

    /// Stores the first `size` (16, 8 or 4) bytes of `row` at `line`: one store, where a
    /// variable-length fill or copy was a call to `memset` or `memmove`.
    @inline(__always)
    private static func store(_ row: VP8Lanes.Bytes, _ line: UnsafeMutablePointer<UInt8>, size: Int) {
        let target = UnsafeMutableRawPointer(line)
        switch size {
        case 16: target.storeBytes(of: row, as: VP8Lanes.Bytes.self)
        case 8: target.storeBytes(of: row.lowHalf, as: SIMD8<UInt8>.self)
        default: target.storeBytes(of: row.lowHalf.lowHalf, as: SIMD4<UInt8>.self)
        }
    }

    @inline(__always)
    private static func fill(_ pixels: UnsafeMutablePointer<UInt8>, size: Int, value: UInt8) {
        for row in 0..<size { store(VP8Lanes.Bytes(repeating: value), pixels + row * stride, size: size) }
    }

    /// Predicts a 16×16 luma block (`size` 16) or an 8×8 chroma block (`size` 8) in `mode`, with
    /// DC using only the edges inside the frame.
    static func predictBlock(
        _ pixels: UnsafeMutablePointer<UInt8>, size: Int, mode: UInt8, hasAbove: Bool, hasLeft: Bool
    ) {
        let shift = size == 16 ? 4 : 3
        switch mode {
        case VP8IntraMode.dc:
            var sum = 0
            if hasAbove { for x in 0..<size { sum += Int(pixels[x - stride]) } }
            if hasLeft { for y in 0..<size { sum += Int(pixels[y * stride - 1]) } }
            let value: Int
            switch (hasAbove, hasLeft) {
            case (true, true): value = (sum + size) >> (shift + 1)
            case (false, false): value = 128
            default: value = (sum + size / 2) >> shift
            }
            fill(pixels, size: size, value: UInt8(value))
        case VP8IntraMode.vertical:
            // Sixteen bytes whatever the size: the buffer's rows are 32 wide and it has rows
            // below every block, so the read stays inside it.
            let above = UnsafeRawPointer(pixels - stride).loadUnaligned(as: VP8Lanes.Bytes.self)
            for y in 0..<size { store(above, pixels + y * stride, size: size) }
        case VP8IntraMode.horizontal:
            for y in 0..<size {
                store(VP8Lanes.Bytes(repeating: pixels[y * stride - 1]), pixels + y * stride, size: size)
            }
        default:
            trueMotion(pixels, size: size)
        }
    }

    /// TrueMotion: above + left − corner, clamped, sixteen lanes a row (for any size, as the
    /// vertical mode reads them).
    @inline(__always)
    private static func trueMotion(_ pixels: UnsafeMutablePointer<UInt8>, size: Int) {
        let above = pixels - stride
        let top = VP8Lanes.widened(UnsafeRawPointer(above).loadUnaligned(as: VP8Lanes.Bytes.self))
        let corner = Int16(above[-1])
        for y in 0..<size {
            let line = pixels + y * stride
            store(VP8Lanes.narrowed(top &+ (Int16(line[-1]) &- corner)), line, size: size)
        }
    }

    /// Predicts a 4×4 luma block; the four pixels after the row above are its above-right edge.
    static func predictSubblock(_ pixels: UnsafeMutablePointer<UInt8>, mode: UInt8) {
        let top = pixels - stride
        let x = top[-1]
        let (a, b, c, d) = (top[0], top[1], top[2], top[3])
        let (e, f, g, h) = (top[4], top[5], top[6], top[7])
        let (i, j, k, l) = (pixels[-1], pixels[stride - 1], pixels[2 * stride - 1], pixels[3 * stride - 1])
        @inline(__always) func store(_ row: Int, _ values: SIMD4<UInt8>) {
            UnsafeMutableRawPointer(pixels + row * stride).storeBytes(of: values, as: SIMD4<UInt8>.self)
        }
        switch mode {
        case VP8IntraMode.dc:
            var sum = 4
            for n in 0..<4 { sum += Int(top[n]) + Int(pixels[n * stride - 1]) }
            fill(pixels, size: 4, value: UInt8(sum >> 3))
        case VP8IntraMode.trueMotion:
            trueMotion(pixels, size: 4)
        case VP8IntraMode.vertical:
            let values = SIMD4(average3(x, a, b), average3(a, b, c), average3(b, c, d), average3(c, d, e))
            for row in 0..<4 { store(row, values) }
        case VP8IntraMode.horizontal:
            store(0, SIMD4(repeating: average3(x, i, j)))
            store(1, SIMD4(repeating: average3(i, j, k)))
            store(2, SIMD4(repeating: average3(j, k, l)))
            store(3, SIMD4(repeating: average3(k, l, l)))
        case VP8IntraMode.downRight:
            let (d0, d1, d2) = (average3(j, k, l), average3(i, j, k), average3(x, i, j))
            let (d3, d4, d5, d6) = (average3(a, x, i), average3(b, a, x), average3(c, b, a), average3(d, c, b))
            store(0, SIMD4(d3, d4, d5, d6))
            store(1, SIMD4(d2, d3, d4, d5))
            store(2, SIMD4(d1, d2, d3, d4))
            store(3, SIMD4(d0, d1, d2, d3))
        case VP8IntraMode.downLeft:
            let (d0, d1, d2) = (average3(a, b, c), average3(b, c, d), average3(c, d, e))
            let (d3, d4, d5, d6) = (average3(d, e, f), average3(e, f, g), average3(f, g, h), average3(g, h, h))
            store(0, SIMD4(d0, d1, d2, d3))
            store(1, SIMD4(d1, d2, d3, d4))
            store(2, SIMD4(d2, d3, d4, d5))
            store(3, SIMD4(d3, d4, d5, d6))
        case VP8IntraMode.verticalRight:
            store(0, SIMD4(average2(x, a), average2(a, b), average2(b, c), average2(c, d)))
            store(1, SIMD4(average3(i, x, a), average3(x, a, b), average3(a, b, c), average3(b, c, d)))
            store(2, SIMD4(average3(j, i, x), average2(x, a), average2(a, b), average2(b, c)))
            store(3, SIMD4(average3(k, j, i), average3(i, x, a), average3(x, a, b), average3(a, b, c)))
        case VP8IntraMode.verticalLeft:
            store(0, SIMD4(average2(a, b), average2(b, c), average2(c, d), average2(d, e)))
            store(1, SIMD4(average3(a, b, c), average3(b, c, d), average3(c, d, e), average3(d, e, f)))
            store(2, SIMD4(average2(b, c), average2(c, d), average2(d, e), average3(e, f, g)))
            store(3, SIMD4(average3(b, c, d), average3(c, d, e), average3(d, e, f), average3(f, g, h)))
        case VP8IntraMode.horizontalDown:
            store(0, SIMD4(average2(i, x), average3(i, x, a), average3(x, a, b), average3(a, b, c)))
            store(1, SIMD4(average2(j, i), average3(j, i, x), average2(i, x), average3(i, x, a)))
            store(2, SIMD4(average2(k, j), average3(k, j, i), average2(j, i), average3(j, i, x)))
            store(3, SIMD4(average2(l, k), average3(l, k, j), average2(k, j), average3(k, j, i)))
        default:  // horizontal up
            store(0, SIMD4(average2(i, j), average3(i, j, k), average2(j, k), average3(j, k, l)))
            store(1, SIMD4(average2(j, k), average3(j, k, l), average2(k, l), average3(k, l, l)))
            store(2, SIMD4(average2(k, l), average3(k, l, l), l, l))
            store(3, SIMD4(repeating: l))
        }
    }
}

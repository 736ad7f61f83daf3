/// The predictor transform: each pixel is a residual added to a prediction from its decoded
/// neighbours (RFC 9649 §4.1).
extension VP8LTransform {
    func undoPredictor(_ pixels: UnsafeMutablePointer<UInt32>, height: Int) {
        let blocksPerRow = VP8LDecoder.subsampled(width, bits: bits)
        // The first row: black for the first pixel, then the left neighbour.
        pixels[0] = VP8LDecoder.addPixels(pixels[0], 0xFF00_0000)
        for x in 1..<width {
            pixels[x] = VP8LDecoder.addPixels(pixels[x], pixels[x - 1])
        }
        guard height > 1 else { return }
        data.withUnsafeBufferPointer { modes in
            for y in 1..<height {
                let row = pixels + y * width
                // The row above; its element `width` is this row's first pixel, which is what the
                // format names as the top-right neighbour of the last column.
                let above = row - width
                row[0] = VP8LDecoder.addPixels(row[0], above[0])
                let blockRow = (y >> bits) * blocksPerRow
                var x = 1
                while x < width {
                    let mode = Int(modes[blockRow + (x >> bits)] >> 8) & 0xF
                    let end = min(width, (x >> bits + 1) << bits)
                    Self.predictRun(mode: mode, row: row, above: above, from: x, to: end)
                    x = end
                }
            }
        }
    }

    /// Undoes one block's run of pixels `start..<end` of `row` (start ≥ 1), with one mode: the
    /// mode is switched on once per run, not per pixel.
    @inline(__always)
    private static func predictRun(
        mode: Int, row: UnsafeMutablePointer<UInt32>, above: UnsafeMutablePointer<UInt32>, from start: Int, to end: Int
    ) {
        @inline(__always) func run(_ predict: (_ left: UInt32, _ x: Int) -> UInt32) {
            var left = row[start - 1]
            for x in start..<end {
                left = VP8LDecoder.addPixels(row[x], predict(left, x))
                row[x] = left
            }
        }
        switch mode {
        case 1: run { left, _ in left }
        case 2: run { _, x in above[x] }
        case 3: run { _, x in above[x + 1] }
        case 4: run { _, x in above[x - 1] }
        case 5: run { left, x in average(average(left, above[x + 1]), above[x]) }
        case 6: run { left, x in average(left, above[x - 1]) }
        case 7: run { left, x in average(left, above[x]) }
        case 8: run { _, x in average(above[x - 1], above[x]) }
        case 9: run { _, x in average(above[x], above[x + 1]) }
        case 10: run { left, x in average(average(left, above[x - 1]), average(above[x], above[x + 1])) }
        case 11: run { left, x in select(top: above[x], left: left, topLeft: above[x - 1]) }
        case 12: run { left, x in clampedAddSubtractFull(left, above[x], above[x - 1]) }
        case 13: run { left, x in clampedAddSubtractHalf(average(left, above[x]), above[x - 1]) }
        // 0, and 14 and 15 as libwebp decodes them.
        default: run { _, _ in 0xFF00_0000 }
        }
    }

    @inline(__always)
    private static func average(_ a: UInt32, _ b: UInt32) -> UInt32 {
        (((a ^ b) & 0xFEFE_FEFE) >> 1) &+ (a & b)
    }

    @inline(__always)
    private static func channel(_ pixel: UInt32, _ shift: UInt32) -> Int32 {
        Int32(truncatingIfNeeded: (pixel >> shift) & 0xFF)
    }

    @inline(__always)
    private static func select(top: UInt32, left: UInt32, topLeft: UInt32) -> UInt32 {
        // Σ|left − topLeft| − Σ|top − topLeft|: the distance of the gradient estimate to top
        // minus its distance to left.
        @inline(__always) func term(_ shift: UInt32) -> Int32 {
            let c = channel(topLeft, shift)
            return abs(channel(left, shift) &- c) &- abs(channel(top, shift) &- c)
        }
        return term(24) &+ term(16) &+ term(8) &+ term(0) <= 0 ? top : left
    }

    @inline(__always)
    private static func clamp(_ value: Int32) -> UInt32 {
        UInt32(truncatingIfNeeded: min(max(value, 0), 255))
    }

    @inline(__always)
    private static func clampedAddSubtractFull(_ a: UInt32, _ b: UInt32, _ c: UInt32) -> UInt32 {
        @inline(__always) func part(_ shift: UInt32) -> UInt32 {
            clamp(channel(a, shift) &+ channel(b, shift) &- channel(c, shift)) << shift
        }
        return part(24) | part(16) | part(8) | part(0)
    }

    @inline(__always)
    private static func clampedAddSubtractHalf(_ a: UInt32, _ b: UInt32) -> UInt32 {
        @inline(__always) func part(_ shift: UInt32) -> UInt32 {
            let average = channel(a, shift)
            return clamp(average &+ (average &- channel(b, shift)) / 2) << shift
        }
        return part(24) | part(16) | part(8) | part(0)
    }
}

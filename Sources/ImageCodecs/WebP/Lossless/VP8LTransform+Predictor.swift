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
                    while x < end {
                        let prediction = Self.predict(mode: mode, left: row[x - 1], above: above, x: x)
                        row[x] = VP8LDecoder.addPixels(row[x], prediction)
                        x += 1
                    }
                }
            }
        }
    }

    @inline(__always)
    private static func predict(mode: Int, left: UInt32, above: UnsafeMutablePointer<UInt32>, x: Int) -> UInt32 {
        switch mode {
        case 1: return left
        case 2: return above[x]
        case 3: return above[x + 1]
        case 4: return above[x - 1]
        case 5: return average(average(left, above[x + 1]), above[x])
        case 6: return average(left, above[x - 1])
        case 7: return average(left, above[x])
        case 8: return average(above[x - 1], above[x])
        case 9: return average(above[x], above[x + 1])
        case 10: return average(average(left, above[x - 1]), average(above[x], above[x + 1]))
        case 11: return select(top: above[x], left: left, topLeft: above[x - 1])
        case 12: return clampedAddSubtractFull(left, above[x], above[x - 1])
        case 13: return clampedAddSubtractHalf(average(left, above[x]), above[x - 1])
        // 0, and 14 and 15 as libwebp decodes them.
        default: return 0xFF00_0000
        }
    }

    @inline(__always)
    private static func average(_ a: UInt32, _ b: UInt32) -> UInt32 {
        (((a ^ b) & 0xFEFE_FEFE) >> 1) &+ (a & b)
    }

    @inline(__always)
    private static func channel(_ pixel: UInt32, _ shift: UInt32) -> Int {
        Int((pixel >> shift) & 0xFF)
    }

    @inline(__always)
    private static func select(top: UInt32, left: UInt32, topLeft: UInt32) -> UInt32 {
        // Σ|left − topLeft| − Σ|top − topLeft|: the distance of the gradient estimate to top
        // minus its distance to left.
        var difference = 0
        for shift: UInt32 in [24, 16, 8, 0] {
            let t = channel(top, shift)
            let l = channel(left, shift)
            let c = channel(topLeft, shift)
            difference += abs(l - c) - abs(t - c)
        }
        return difference <= 0 ? top : left
    }

    @inline(__always)
    private static func clamp(_ value: Int) -> UInt32 {
        UInt32(min(max(value, 0), 255))
    }

    @inline(__always)
    private static func clampedAddSubtractFull(_ a: UInt32, _ b: UInt32, _ c: UInt32) -> UInt32 {
        var result: UInt32 = 0
        for shift: UInt32 in [24, 16, 8, 0] {
            result |= clamp(channel(a, shift) + channel(b, shift) - channel(c, shift)) << shift
        }
        return result
    }

    @inline(__always)
    private static func clampedAddSubtractHalf(_ a: UInt32, _ b: UInt32) -> UInt32 {
        var result: UInt32 = 0
        for shift: UInt32 in [24, 16, 8, 0] {
            let average = channel(a, shift)
            result |= clamp(average + (average - channel(b, shift)) / 2) << shift
        }
        return result
    }
}

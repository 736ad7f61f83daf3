/// PNG's five row filters (0 None, 1 Sub, 2 Up, 3 Average, 4 Paeth; PNG specification, section 9),
/// written from the specification independently of the decoder: rows filtered with types the
/// caller picks (to test each one), or with libpng's choice per row (to write files like editors).
public enum PNGRowFilter {
    /// The predictor of filter type `filterType` (PNG specification, section 9.2).
    ///
    /// - Parameters:
    ///   - filterType: 0...4; any other value predicts as Paeth, so tests can write invalid types
    ///     and still know what a lenient decoder would compute.
    ///   - left: The byte `bytesPerPixel` to the left (`a`), or 0 in the first pixel.
    ///   - up: The byte above (`b`), or 0 in the first row.
    ///   - upLeft: The byte above `left` (`c`), or 0.
    /// - Returns: The value the filter subtracts (modulo 256) from the raw byte.
    @inline(__always)
    public static func predictor(_ filterType: UInt8, left: UInt8, up: UInt8, upLeft: UInt8) -> UInt8 {
        switch filterType {
        case 0: return 0
        case 1: return left
        case 2: return up
        case 3: return UInt8((Int(left) + Int(up)) / 2)
        default: return paeth(left: left, up: up, upLeft: upLeft)
        }
    }

    /// Filters rows of raw bytes with the given filter types.
    ///
    /// - Parameters:
    ///   - rows: The raw rows (packed samples), all the same length.
    ///   - filterTypes: The filter type of each row, cycled if shorter than `rows`.
    ///   - bytesPerPixel: The filter distance: bytes per pixel, at least 1.
    /// - Returns: The filtered image data: each row its filter type byte, then the differences.
    public static func filter(_ rows: [[UInt8]], filterTypes: [UInt8], bytesPerPixel: Int) -> [UInt8] {
        precondition(!filterTypes.isEmpty && bytesPerPixel >= 1, "filter types and a distance of at least 1")
        var output: [UInt8] = []
        var prior = [UInt8](repeating: 0, count: rows.first?.count ?? 0)
        for (index, row) in rows.enumerated() {
            let filterType = filterTypes[index % filterTypes.count]
            output.append(filterType)
            for x in row.indices {
                let left = x >= bytesPerPixel ? row[x - bytesPerPixel] : 0
                let upLeft = x >= bytesPerPixel ? prior[x - bytesPerPixel] : 0
                output.append(row[x] &- predictor(filterType, left: left, up: prior[x], upLeft: upLeft))
            }
            prior = row
        }
        return output
    }

    /// The filtered image data with libpng's choice of filter for each row.
    ///
    /// Each row gets the filter whose output has the smallest sum of absolute values, bytes read
    /// as signed: libpng's "minimum sum of absolute differences" heuristic, which favours output
    /// near zero, which DEFLATE compresses best.
    ///
    /// - Parameters:
    ///   - pixels: `height` rows of `width * bytesPerPixel` bytes, 8-bit samples.
    ///   - width: Pixels per row.
    ///   - height: Rows.
    ///   - bytesPerPixel: Bytes per pixel, at least 1.
    /// - Returns: Each row prefixed by its filter type.
    public static func filterAdaptively(_ pixels: [UInt8], width: Int, height: Int, bytesPerPixel: Int) -> [UInt8] {
        let rowLength = width * bytesPerPixel
        precondition(pixels.count == rowLength * height, "pixels hold height rows of width pixels")
        var output = [UInt8](repeating: 0, count: (rowLength + 1) * height)
        var candidates = [[UInt8]](repeating: [UInt8](repeating: 0, count: rowLength), count: 5)
        let zeroRow = [UInt8](repeating: 0, count: rowLength)
        pixels.withUnsafeBufferPointer { image in
            for row in 0..<height {
                let current = UnsafeBufferPointer(rebasing: image[row * rowLength..<(row + 1) * rowLength])
                var bestFilter: UInt8 = 0
                var bestScore = Int.max
                zeroRow.withUnsafeBufferPointer { zeros in
                    let above =
                        row == 0
                        ? zeros : UnsafeBufferPointer(rebasing: image[(row - 1) * rowLength..<row * rowLength])
                    for filter in UInt8(0)..<5 {
                        let score = candidates[Int(filter)].withUnsafeMutableBufferPointer { out in
                            apply(filter, current: current, above: above, bytesPerPixel: bytesPerPixel, into: out)
                        }
                        if score < bestScore {
                            bestScore = score
                            bestFilter = filter
                        }
                    }
                }
                let start = row * (rowLength + 1)
                output[start] = bestFilter
                output.replaceSubrange(start + 1..<start + 1 + rowLength, with: candidates[Int(bestFilter)])
            }
        }
        return output
    }

    /// Writes `filter` applied to `current` into `out` and returns the heuristic's score.
    private static func apply(
        _ filter: UInt8, current: UnsafeBufferPointer<UInt8>, above: UnsafeBufferPointer<UInt8>,
        bytesPerPixel: Int, into out: UnsafeMutableBufferPointer<UInt8>
    ) -> Int {
        var score = 0
        for index in 0..<current.count {
            let left = index >= bytesPerPixel ? current[index - bytesPerPixel] : 0
            let upLeft = index >= bytesPerPixel ? above[index - bytesPerPixel] : 0
            let value = current[index] &- predictor(filter, left: left, up: above[index], upLeft: upLeft)
            out[index] = value
            score += Int(Int8(bitPattern: value).magnitude)
        }
        return score
    }

    @inline(__always)
    private static func paeth(left: UInt8, up: UInt8, upLeft: UInt8) -> UInt8 {
        let estimate = Int(left) + Int(up) - Int(upLeft)
        let distanceLeft = abs(estimate - Int(left))
        let distanceUp = abs(estimate - Int(up))
        let distanceUpLeft = abs(estimate - Int(upLeft))
        if distanceLeft <= distanceUp && distanceLeft <= distanceUpLeft { return left }
        return distanceUp <= distanceUpLeft ? up : upLeft
    }
}

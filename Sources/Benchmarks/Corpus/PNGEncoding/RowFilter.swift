/// PNG's five row filters (None, Sub, Up, Average, Paeth) and libpng's choice among them.
enum RowFilter {
    /// The filtered image data: each row prefixed by its filter type.
    ///
    /// Each row gets the filter whose output has the smallest sum of absolute values, bytes read
    /// as signed: libpng's "minimum sum of absolute differences" heuristic, which favours output
    /// near zero, which DEFLATE compresses best.
    static func filterRows(_ pixels: [UInt8], width: Int, height: Int, bytesPerPixel: Int) -> [UInt8] {
        let rowLength = width * bytesPerPixel
        var output = [UInt8](repeating: 0, count: (rowLength + 1) * height)
        var candidates = [[UInt8]](repeating: [UInt8](repeating: 0, count: rowLength), count: 5)
        let zeroRow = [UInt8](repeating: 0, count: rowLength)
        pixels.withUnsafeBufferPointer { image in
            for row in 0..<height {
                let current = UnsafeBufferPointer(rebasing: image[row * rowLength..<(row + 1) * rowLength])
                var bestFilter = 0
                var bestScore = Int.max
                zeroRow.withUnsafeBufferPointer { zeros in
                    let above =
                        row == 0
                        ? zeros : UnsafeBufferPointer(rebasing: image[(row - 1) * rowLength..<row * rowLength])
                    for filter in 0..<5 {
                        let score = candidates[filter].withUnsafeMutableBufferPointer { out in
                            apply(filter, current: current, above: above, bytesPerPixel: bytesPerPixel, into: out)
                        }
                        if score < bestScore {
                            bestScore = score
                            bestFilter = filter
                        }
                    }
                }
                let start = row * (rowLength + 1)
                output[start] = UInt8(bestFilter)
                output.replaceSubrange(start + 1..<start + 1 + rowLength, with: candidates[bestFilter])
            }
        }
        return output
    }

    /// Writes `filter` applied to `current` into `out` and returns the heuristic's score.
    private static func apply(
        _ filter: Int, current: UnsafeBufferPointer<UInt8>, above: UnsafeBufferPointer<UInt8>,
        bytesPerPixel: Int, into out: UnsafeMutableBufferPointer<UInt8>
    ) -> Int {
        var score = 0
        for index in 0..<current.count {
            let left = index >= bytesPerPixel ? current[index - bytesPerPixel] : 0
            let up = above[index]
            let upLeft = index >= bytesPerPixel ? above[index - bytesPerPixel] : 0
            let predictor: UInt8
            switch filter {
            case 0: predictor = 0
            case 1: predictor = left
            case 2: predictor = up
            case 3: predictor = UInt8((Int(left) + Int(up)) / 2)
            default: predictor = paeth(left: left, up: up, upLeft: upLeft)
            }
            let value = current[index] &- predictor
            out[index] = value
            score += Int(Int8(bitPattern: value).magnitude)
        }
        return score
    }

    private static func paeth(left: UInt8, up: UInt8, upLeft: UInt8) -> UInt8 {
        let estimate = Int(left) + Int(up) - Int(upLeft)
        let distanceLeft = abs(estimate - Int(left))
        let distanceUp = abs(estimate - Int(up))
        let distanceUpLeft = abs(estimate - Int(upLeft))
        if distanceLeft <= distanceUp && distanceLeft <= distanceUpLeft { return left }
        return distanceUp <= distanceUpLeft ? up : upLeft
    }
}

/// Brings one component's samples to the output resolution, one output row at a time, exactly
/// as libjpeg-turbo 2.1.5's `jdsample.c` does by default:
///
/// | ratio (output : component)     | method                                                 |
/// |--------------------------------|--------------------------------------------------------|
/// | 1 : 1                          | copy                                                   |
/// | 2 : 1 horizontally             | triangle filter (`h2v1_fancy_upsample`) if the component is more than 2 samples wide, else replication |
/// | 2 : 1 vertically               | triangle filter (`h1v2_fancy_upsample`)                |
/// | 2 : 1 both ways                | triangle filter (`h2v2_fancy_upsample`) if more than 2 samples wide, else replication |
/// | any other integer ratio        | replication (`int_upsample`)                           |
///
/// With `fancy` off (libjpeg turns it off at 1/8 scale) every ratio replicates. The filters see
/// the component's edge samples repeated beyond its edges, as libjpeg's context rows do.
struct JPEGUpsampler {
    /// How the component is expanded.
    enum Method: Equatable {
        case copy
        case fancyHorizontal
        case fancyVertical
        case fancyBoth
        case replicate(horizontal: Int, vertical: Int)
    }

    let method: Method
    /// The component's samples: `height` rows of `width` meaningful samples, `stride` apart.
    let samples: UnsafePointer<UInt8>
    let stride: Int
    package let width: Int
    package let height: Int
    /// The rows `samples` holds: `height`, or fewer when it is a ring of bands (row `r` of the
    /// component is then stored at `r % heldRows`).
    let heldRows: Int

    /// Chooses the method for a component whose samples are `horizontalExpansion` ×
    /// `verticalExpansion` times smaller than the output.
    init(
        samples: UnsafePointer<UInt8>, stride: Int, width: Int, height: Int,
        horizontalExpansion: Int, verticalExpansion: Int, fancy: Bool, heldRows: Int? = nil
    ) {
        self.heldRows = heldRows ?? height
        self.samples = samples
        self.stride = stride
        self.width = width
        self.height = height
        switch (horizontalExpansion, verticalExpansion) {
        case (1, 1): method = .copy
        case (2, 1) where fancy && width > 2: method = .fancyHorizontal
        case (1, 2) where fancy: method = .fancyVertical
        case (2, 2) where fancy && width > 2: method = .fancyBoth
        default: method = .replicate(horizontal: horizontalExpansion, vertical: verticalExpansion)
        }
    }

    /// A pointer to output row `y` of the component, computed into `scratch` when needed.
    ///
    /// - Parameters:
    ///   - y: The output row, in `0..<outputHeight`.
    ///   - outputWidth: The samples the caller reads from the result.
    ///   - scratch: At least `outputWidth + 4 * width + 16` writable bytes.
    func row(_ y: Int, outputWidth: Int, scratch: UnsafeMutablePointer<UInt8>) -> UnsafePointer<UInt8> {
        switch method {
        case .copy:
            return rowStart(min(y, height - 1))
        case .fancyHorizontal:
            fancyHorizontalRow(rowStart(min(y, height - 1)), into: scratch)
            return UnsafePointer(scratch)
        case .fancyVertical:
            let (near, far) = verticalNeighbours(y)
            let bias = y & 1 == 0 ? 1 : 2
            for x in 0..<min(width, outputWidth) {
                scratch[x] = UInt8(truncatingIfNeeded: (3 * Int(near[x]) + Int(far[x]) + bias) >> 2)
            }
            return UnsafePointer(scratch)
        case .fancyBoth:
            fancyBothRow(y, into: scratch)
            return UnsafePointer(scratch)
        case .replicate(let horizontal, let vertical):
            let source = rowStart(min(y / vertical, height - 1))
            if horizontal == 1 { return source }
            var x = 0
            for column in 0..<width {
                let value = source[column]
                for _ in 0..<horizontal {
                    scratch[x] = value
                    x += 1
                }
                if x >= outputWidth { break }
            }
            return UnsafePointer(scratch)
        }
    }

    /// The nearer and farther input rows of output row `y` for the vertical triangle filter.
    @inline(__always)
    private func verticalNeighbours(_ y: Int) -> (UnsafePointer<UInt8>, UnsafePointer<UInt8>) {
        let nearRow = min(y >> 1, height - 1)
        let farRow = y & 1 == 0 ? max(nearRow - 1, 0) : min(nearRow + 1, height - 1)
        return (rowStart(nearRow), rowStart(farRow))
    }

    /// Where component row `row` is stored.
    @inline(__always)
    private func rowStart(_ row: Int) -> UnsafePointer<UInt8> {
        samples + (row % heldRows) * stride
    }

    private func fancyHorizontalRow(_ input: UnsafePointer<UInt8>, into output: UnsafeMutablePointer<UInt8>) {
        // Proven above: width > 2, and the scratch holds 2 * width samples. The edge columns
        // see themselves as their missing neighbour.
        let last = width - 1
        output[0] = input[0]
        output[1] = UInt8(truncatingIfNeeded: (3 * Int(input[0]) + Int(input[1]) + 2) >> 2)
        for x in 1..<last {
            let center = 3 * Int(input[x])
            output[2 * x] = UInt8(truncatingIfNeeded: (center + Int(input[x - 1]) + 1) >> 2)
            output[2 * x + 1] = UInt8(truncatingIfNeeded: (center + Int(input[x + 1]) + 2) >> 2)
        }
        output[2 * last] = UInt8(truncatingIfNeeded: (3 * Int(input[last]) + Int(input[last - 1]) + 1) >> 2)
        output[2 * last + 1] = input[last]
    }

    private func fancyBothRow(_ y: Int, into output: UnsafeMutablePointer<UInt8>) {
        let (near, far) = verticalNeighbours(y)
        let last = width - 1
        // Column sums of 3 * near + far, the vertical half of the filter; edge columns see
        // themselves as their missing neighbour. Proven above: width > 2.
        @inline(__always) func columnSum(_ x: Int) -> Int { 3 * Int(near[x]) + Int(far[x]) }
        var previous = columnSum(0)
        var current = previous
        var next = columnSum(1)
        output[0] = UInt8(truncatingIfNeeded: (4 * current + 8) >> 4)
        output[1] = UInt8(truncatingIfNeeded: (3 * current + next + 7) >> 4)
        let vectorEnd = Self.fancyBothColumnsInVectors(near, far, last: last, into: output)
        if vectorEnd > 1 {
            current = columnSum(vectorEnd - 1)
            next = columnSum(vectorEnd)
        }
        for x in vectorEnd..<last {
            previous = current
            current = next
            next = columnSum(x + 1)
            output[2 * x] = UInt8(truncatingIfNeeded: (3 * current + previous + 8) >> 4)
            output[2 * x + 1] = UInt8(truncatingIfNeeded: (3 * current + next + 7) >> 4)
        }
        output[2 * last] = UInt8(truncatingIfNeeded: (3 * next + current + 8) >> 4)
        output[2 * last + 1] = UInt8(truncatingIfNeeded: (4 * next + 7) >> 4)
    }

    /// The inner columns of ``fancyBothRow(_:into:)``, eight input columns at a time from column
    /// 1 while the eight and their right neighbours lie before column `last`; the scalar loop
    /// does the rest.
    ///
    /// The column sums `3 * near + far` are computed once per column, sixteen at a time, into
    /// 16-bit lanes after the output row (2 × `width` bytes from `output + 2 * width + 8`); the
    /// horizontal half of the filter then reads each sum as its column's own and as both
    /// neighbours'. Every sum fits in 16 bits (at most 16 × 255 + 8), so the lanes are 16-bit:
    /// each output pair `(even, odd)` is one lane `even | odd << 8`, stored little-endian: even,
    /// then odd.
    ///
    /// - Returns: The first column not done (1 if none was).
    @inline(__always)
    private static func fancyBothColumnsInVectors(
        _ near: UnsafePointer<UInt8>, _ far: UnsafePointer<UInt8>, last: Int, into output: UnsafeMutablePointer<UInt8>
    ) -> Int {
        let sums = UnsafeMutableRawPointer(output + 2 * (last + 1) + 8)
        var column = 0
        while column + 16 <= last + 1 {
            let nearBytes = UnsafeRawPointer(near + column).loadUnaligned(as: SIMD16<UInt8>.self)
            let farBytes = UnsafeRawPointer(far + column).loadUnaligned(as: SIMD16<UInt8>.self)
            let low =
                3 &* SIMD8<Int16>(truncatingIfNeeded: nearBytes.lowHalf)
                &+ SIMD8<Int16>(truncatingIfNeeded: farBytes.lowHalf)
            let high =
                3 &* SIMD8<Int16>(truncatingIfNeeded: nearBytes.highHalf)
                &+ SIMD8<Int16>(truncatingIfNeeded: farBytes.highHalf)
            sums.storeBytes(of: low, toByteOffset: 2 * column, as: SIMD8<Int16>.self)
            sums.storeBytes(of: high, toByteOffset: 2 * column + 16, as: SIMD8<Int16>.self)
            column += 16
        }
        while column <= last {
            sums.storeBytes(
                of: 3 &* Int16(near[column]) &+ Int16(far[column]), toByteOffset: 2 * column, as: Int16.self)
            column += 1
        }
        @inline(__always) func columnSums(_ x: Int) -> SIMD8<Int16> {
            UnsafeRawPointer(sums).loadUnaligned(fromByteOffset: 2 * x, as: SIMD8<Int16>.self)
        }
        let pairs = UnsafeMutableRawPointer(output)
        var x = 1
        // Reads columns x - 1 ... x + 8, all at most `last`.
        while x + 8 <= last {
            let current = 3 &* columnSums(x)
            let even = (current &+ columnSums(x - 1) &+ 8) &>> 4
            let odd = (current &+ columnSums(x + 1) &+ 7) &>> 4
            pairs.storeBytes(of: even | odd &<< 8, toByteOffset: 2 * x, as: SIMD8<Int16>.self)
            x += 8
        }
        return x
    }
}

/// Reverses the five PNG filter types (PNG specification, section 9) one row at a time.
///
/// Each filter predicts a byte from its left neighbour `a` (one pixel back), the byte above `b`
/// and the byte above-left `c`; the row stores the difference. The loops are specialized by
/// bytes per pixel so the distance to `a` is a constant the compiler can unroll around.
enum Unfilter {
    /// Filter type bytes the specification defines: None, Sub, Up, Average, Paeth.
    static let filterTypeCount: UInt8 = 5

    /// Reconstructs one row.
    ///
    /// `destination` may overlap `row` if it starts at or before it (in place, or moving rows
    /// towards the start of a shared buffer): the bytes of each pixel of `row` are read before
    /// the same pixel of `destination` is written.
    ///
    /// - Parameters:
    ///   - filterType: The row's filter type, already checked to be 0...4.
    ///   - row: The filtered bytes, without the filter type byte.
    ///   - prior: The reconstructed row above, or zeros for a pass's first row.
    ///   - destination: Where the reconstructed bytes go.
    ///   - count: The bytes in the row.
    ///   - bytesPerPixel: The filter distance: 1, 2, 3, 4, 6 or 8.
    /// - Complexity: O(`count`).
    static func unfilterRow(
        filterType: UInt8,
        row: UnsafePointer<UInt8>,
        prior: UnsafePointer<UInt8>,
        into destination: UnsafeMutablePointer<UInt8>,
        count: Int,
        bytesPerPixel: Int
    ) {
        switch filterType {
        case 0:
            if UnsafePointer(destination) != row { destination.update(from: row, count: count) }
        case 2:
            for index in 0..<count {
                destination[index] = row[index] &+ prior[index]
            }
        default:
            // Sub, Average and Paeth depend on the previous pixel, so the pixel width matters.
            switch bytesPerPixel {
            case 1: unfilter(filterType, row, prior, destination, count, bytesPerPixel: 1)
            case 2: unfilter(filterType, row, prior, destination, count, bytesPerPixel: 2)
            case 3: unfilterPixels(ThreeBytePixels.self, filterType, row, prior, destination, count)
            case 4: unfilterPixels(FourBytePixels.self, filterType, row, prior, destination, count)
            case 6: unfilter(filterType, row, prior, destination, count, bytesPerPixel: 6)
            default: unfilter(filterType, row, prior, destination, count, bytesPerPixel: 8)
            }
        }
    }

    /// Sub (1), Average (3) or Paeth (4) for one constant pixel width.
    @inline(__always)
    private static func unfilter(
        _ filterType: UInt8,
        _ row: UnsafePointer<UInt8>,
        _ prior: UnsafePointer<UInt8>,
        _ destination: UnsafeMutablePointer<UInt8>,
        _ count: Int,
        bytesPerPixel: Int
    ) {
        // The first pixel has no left neighbour: a = c = 0.
        let head = min(bytesPerPixel, count)
        switch filterType {
        case 1:
            for index in 0..<head {
                destination[index] = row[index]
            }
            var index = head
            while index < count {
                destination[index] = row[index] &+ destination[index &- bytesPerPixel]
                index &+= 1
            }
        case 3:
            for index in 0..<head {
                destination[index] = row[index] &+ prior[index] &>> 1
            }
            var index = head
            while index < count {
                let left = UInt16(destination[index &- bytesPerPixel])
                let above = UInt16(prior[index])
                destination[index] = row[index] &+ UInt8(truncatingIfNeeded: (left &+ above) &>> 1)
                index &+= 1
            }
        default:
            // Paeth with a = c = 0 predicts b, the byte above.
            for index in 0..<head {
                destination[index] = row[index] &+ prior[index]
            }
            var index = head
            while index < count {
                let left = Int16(destination[index &- bytesPerPixel])
                let above = Int16(prior[index])
                let aboveLeft = Int16(prior[index &- bytesPerPixel])
                destination[index] = row[index] &+ paethPredictor(left, above, aboveLeft)
                index &+= 1
            }
        }
    }

    /// Sub, Average or Paeth for 3 or 4 bytes per pixel (8-bit RGB, RGBA, 16-bit gray + alpha),
    /// one whole pixel per step in vector lanes: the lanes of a pixel are independent, only
    /// consecutive pixels depend on each other. Generic over the width so that each width gets
    /// its own compiled loop with constant strides.
    ///
    /// Loads read 4 bytes per pixel, one past a 3-byte pixel: past a row's end that is the next
    /// row's filter type byte or the slack after the data, and the zero row has slack too.
    /// Stores write exactly the pixel's bytes, so in-place reconstruction never overwrites a
    /// byte it has yet to read.
    private static func unfilterPixels<Width: VectorPixelWidth>(
        _: Width.Type,
        _ filterType: UInt8,
        _ row: UnsafePointer<UInt8>,
        _ prior: UnsafePointer<UInt8>,
        _ destination: UnsafeMutablePointer<UInt8>,
        _ count: Int
    ) {
        var left = SIMD4<Int16>()
        var aboveLeft = SIMD4<Int16>()
        var index = 0
        switch filterType {
        case 1:
            while index < count {
                let pixel = load(row + index) &+ left
                Width.store(pixel, to: destination + index)
                left = pixel
                index &+= Width.byteCount
            }
        case 3:
            // Each pixel waits on the one to its left, so the loop runs at the speed of that
            // chain. `floor((left + above) / 2)` is `~avg(~left, ~above)`, with `avg` rounding
            // up (one instruction: PAVGB, URHADD); carrying `~left` makes the chain an average
            // and a subtraction: `~pixel = ~(raw + ~avg) = avg - raw`, modulo 256.
            var invertedLeft = SIMD4<UInt8>(repeating: 255)
            while index < count {
                let invertedAbove = ~loadBytes(prior + index)
                invertedLeft = roundedUpAverage(invertedLeft, invertedAbove) &- loadBytes(row + index)
                Width.store(SIMD4<Int16>(truncatingIfNeeded: ~invertedLeft), to: destination + index)
                index &+= Width.byteCount
            }
        default:
            while index < count {
                let above = load(prior + index)
                let pixel = (load(row + index) &+ paethPredictor(left, above, aboveLeft)) & 0xFF
                Width.store(pixel, to: destination + index)
                left = pixel
                aboveLeft = above
                index &+= Width.byteCount
            }
        }
    }

    /// Four bytes as 16-bit lanes.
    @inline(__always)
    static func load(_ bytes: UnsafePointer<UInt8>) -> SIMD4<Int16> {
        SIMD4<Int16>(truncatingIfNeeded: UnsafeRawPointer(bytes).loadUnaligned(as: SIMD4<UInt8>.self))
    }

    /// Four bytes.
    @inline(__always)
    static func loadBytes(_ bytes: UnsafePointer<UInt8>) -> SIMD4<UInt8> {
        UnsafeRawPointer(bytes).loadUnaligned(as: SIMD4<UInt8>.self)
    }

    /// `(a + b + 1) / 2` lane by lane, without overflow: the shape compilers turn into a single
    /// averaging instruction.
    @inline(__always)
    static func roundedUpAverage(_ a: SIMD4<UInt8>, _ b: SIMD4<UInt8>) -> SIMD4<UInt8> {
        let sum = SIMD4<UInt16>(truncatingIfNeeded: a) &+ SIMD4<UInt16>(truncatingIfNeeded: b) &+ 1
        return SIMD4<UInt8>(truncatingIfNeeded: sum &>> 1)
    }

    /// The Paeth predictor of every lane, lane by lane as the scalar version below.
    @inline(__always)
    static func paethPredictor(_ a: SIMD4<Int16>, _ b: SIMD4<Int16>, _ c: SIMD4<Int16>) -> SIMD4<Int16> {
        let distanceToA = magnitude(b &- c)
        let distanceToB = magnitude(a &- c)
        let distanceToC = magnitude(a &+ b &- c &- c)
        var predictor = c.replacing(with: b, where: distanceToB .<= distanceToC)
        predictor.replace(with: a, where: distanceToA .<= distanceToB .& distanceToA .<= distanceToC)
        return predictor
    }

    /// The lane-wise absolute value.
    @inline(__always)
    private static func magnitude(_ value: SIMD4<Int16>) -> SIMD4<Int16> {
        pointwiseMax(value, 0 &- value)
    }

    /// The Paeth predictor: whichever of `a`, `b`, `c` is closest to `a + b - c`, preferring `a`
    /// then `b` on ties (PNG specification, 9.4).
    @inline(__always)
    static func paethPredictor(_ a: Int16, _ b: Int16, _ c: Int16) -> UInt8 {
        let distanceToA = abs(b &- c)
        let distanceToB = abs(a &- c)
        let distanceToC = abs(a &+ b &- c &- c)
        let predictor =
            distanceToA <= distanceToB && distanceToA <= distanceToC
            ? a : (distanceToB <= distanceToC ? b : c)
        return UInt8(truncatingIfNeeded: predictor)
    }
}

/// A pixel width that ``Unfilter`` reconstructs a whole pixel at a time in vector lanes.
private protocol VectorPixelWidth {
    /// The bytes of one pixel.
    static var byteCount: Int { get }
    /// Stores the low byte of the pixel's lanes.
    static func store(_ pixel: SIMD4<Int16>, to bytes: UnsafeMutablePointer<UInt8>)
}

/// 8-bit RGB.
private enum ThreeBytePixels: VectorPixelWidth {
    static var byteCount: Int { 3 }

    @inline(__always)
    static func store(_ pixel: SIMD4<Int16>, to bytes: UnsafeMutablePointer<UInt8>) {
        let narrow = SIMD4<UInt8>(truncatingIfNeeded: pixel)
        bytes[0] = narrow[0]
        bytes[1] = narrow[1]
        bytes[2] = narrow[2]
    }
}

/// 8-bit RGBA and 16-bit gray + alpha.
private enum FourBytePixels: VectorPixelWidth {
    static var byteCount: Int { 4 }

    @inline(__always)
    static func store(_ pixel: SIMD4<Int16>, to bytes: UnsafeMutablePointer<UInt8>) {
        UnsafeMutableRawPointer(bytes).storeBytes(of: SIMD4<UInt8>(truncatingIfNeeded: pixel), as: SIMD4<UInt8>.self)
    }
}

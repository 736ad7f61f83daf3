/// Two rows of 8-bit RGB at a time, for the filters whose pixels form a chain.
///
/// Average and Paeth make each pixel depend on the one to its left, so a row takes that chain's
/// latency however wide the machine: two operations a pixel for Average, about ten for Paeth.
/// The next row's pixel needs only its own left neighbour and pixels of the row above that are
/// already done, so two rows' chains can advance side by side: about twice the pixels per
/// cycle. Photos are mostly Average and Paeth rows.
extension Unfilter {
    /// Whether ``unfilterRGBRowPairToRGBA(filterType:rows:prior:into:pixelCount:)`` takes two
    /// rows that both have this filter type.
    static func pairsRows(filterType: UInt8) -> Bool {
        filterType == 3 || filterType == 4
    }

    /// Reconstructs two consecutive rows of 8-bit RGB with the same filter type, Average or
    /// Paeth, and writes them as RGBA with alpha 255, as two calls of
    /// ``unfilterRGBRowToRGBA(filterType:row:prior:into:pixelCount:)`` would.
    ///
    /// - Parameters:
    ///   - filterType: The filter type of both rows: 3 or 4 (see ``pairsRows(filterType:)``).
    ///   - rows: The filtered bytes of the two rows, without their filter type bytes.
    ///   - prior: The reconstructed RGBA row above the first, or zeros for the first row.
    ///   - destinations: Room for `pixelCount` RGBA pixels each, the first row's first.
    ///   - pixelCount: The pixels in a row, at least 1.
    /// - Complexity: O(`pixelCount`).
    static func unfilterRGBRowPairToRGBA(
        filterType: UInt8,
        rows: (UnsafePointer<UInt8>, UnsafePointer<UInt8>),
        prior: UnsafePointer<UInt8>,
        into destinations: (UnsafeMutablePointer<UInt8>, UnsafeMutablePointer<UInt8>),
        pixelCount: Int
    ) {
        if filterType == 3 {
            unfilterAverageRowPair(rows: rows, prior: prior, into: destinations, pixelCount: pixelCount)
        } else {
            unfilterPaethRowPair(rows: rows, prior: prior, into: destinations, pixelCount: pixelCount)
        }
    }

    /// Average: two chains of one average and one subtraction, the first row's `~left` being
    /// the second row's `~above` (see `unfilterPixels` for why the chains carry `~left`).
    private static func unfilterAverageRowPair(
        rows: (UnsafePointer<UInt8>, UnsafePointer<UInt8>),
        prior: UnsafePointer<UInt8>,
        into destinations: (UnsafeMutablePointer<UInt8>, UnsafeMutablePointer<UInt8>),
        pixelCount: Int
    ) {
        var firstInvertedLeft = SIMD4<UInt8>(repeating: 255)
        var secondInvertedLeft = SIMD4<UInt8>(repeating: 255)
        for x in 0..<pixelCount {
            let invertedAbove = ~loadBytes(prior + 4 &* x)
            firstInvertedLeft = roundedUpAverage(firstInvertedLeft, invertedAbove) &- loadBytes(rows.0 + 3 &* x)
            secondInvertedLeft = roundedUpAverage(secondInvertedLeft, firstInvertedLeft) &- loadBytes(rows.1 + 3 &* x)
            storeOpaque(~firstInvertedLeft, to: destinations.0 + 4 &* x)
            storeOpaque(~secondInvertedLeft, to: destinations.1 + 4 &* x)
        }
    }

    /// Paeth: one chain in eight 16-bit lanes, the first row's pixel `x` in the low four and the
    /// second row's pixel `x - 1` in the high four. Every input of both halves is then the
    /// previous step's result or a load: the second row's left, above and above-left are the
    /// previous step's high half, low half and the previous above's low half. One predictor
    /// costs the same in eight lanes as in four, so the pair takes about one row's time.
    private static func unfilterPaethRowPair(
        rows: (UnsafePointer<UInt8>, UnsafePointer<UInt8>),
        prior: UnsafePointer<UInt8>,
        into destinations: (UnsafeMutablePointer<UInt8>, UnsafeMutablePointer<UInt8>),
        pixelCount: Int
    ) {
        // `low` indexes the first row's pixel, `high` the second row's.
        @inline(__always)
        func step(
            low: Int, high: Int, left: SIMD8<Int16>, aboveLeft: SIMD8<Int16>
        ) -> (pixel: SIMD8<Int16>, above: SIMD8<Int16>) {
            let above = SIMD8(lowHalf: load(prior + 4 &* low), highHalf: left.lowHalf)
            let bytes = SIMD8(lowHalf: load(rows.0 + 3 &* low), highHalf: load(rows.1 + 3 &* high))
            return ((bytes &+ paethPredictor(left, above, aboveLeft)) & 0xFF, above)
        }
        // Pixel 0 of the first row, whose left and above-left are zero; so must the high half be
        // for the next step (the second row's pixel -1 and the first row's pixel -1).
        let lowHalf = SIMD8<Int16>(-1, -1, -1, -1, 0, 0, 0, 0)
        var (previous, previousAbove) = step(low: 0, high: 0, left: .zero, aboveLeft: .zero)
        previous &= lowHalf
        storeOpaque(SIMD4<UInt8>(truncatingIfNeeded: previous.lowHalf), to: destinations.0)
        for x in 1..<pixelCount {
            (previous, previousAbove) = step(low: x, high: x &- 1, left: previous, aboveLeft: previousAbove)
            storeOpaque(SIMD4<UInt8>(truncatingIfNeeded: previous.lowHalf), to: destinations.0 + 4 &* x)
            storeOpaque(SIMD4<UInt8>(truncatingIfNeeded: previous.highHalf), to: destinations.1 + 4 &* (x &- 1))
        }
        // The second row's last pixel; the low half repeats the first row's last and is dropped.
        let last = step(low: pixelCount &- 1, high: pixelCount &- 1, left: previous, aboveLeft: previousAbove).pixel
        storeOpaque(SIMD4<UInt8>(truncatingIfNeeded: last.highHalf), to: destinations.1 + 4 &* (pixelCount &- 1))
    }

    /// The Paeth predictor in eight lanes, written with arithmetic masks (a lane's sign
    /// spread by a shift): with comparisons and `replacing(with:where:)` eight lanes compile to
    /// a loop over the lanes. Lanes hold bytes, so no difference below overflows.
    @inline(__always)
    private static func paethPredictor(_ a: SIMD8<Int16>, _ b: SIMD8<Int16>, _ c: SIMD8<Int16>) -> SIMD8<Int16> {
        @inline(__always)
        func magnitude(_ value: SIMD8<Int16>) -> SIMD8<Int16> {
            let sign = value &>> 15
            return (value ^ sign) &- sign
        }
        let distanceToA = magnitude(b &- c)
        let distanceToB = magnitude(a &- c)
        let distanceToC = magnitude(a &+ b &- c &- c)
        // All ones where the first distance is at most the second.
        let bNotFarther = ~((distanceToC &- distanceToB) &>> 15)
        let aNearest = ~((distanceToB &- distanceToA) &>> 15) & ~((distanceToC &- distanceToA) &>> 15)
        let bOrC = (b & bNotFarther) | (c & ~bNotFarther)
        return (a & aNearest) | (bOrC & ~aNearest)
    }
}

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
    /// second row's pixel `x - 2` in the high four. Each half's left neighbour is the previous
    /// step's same half, so the chain from one step to the next is `a` alone; the second row's
    /// above and above-left are the first row's pixels `x - 2` and `x - 3`, finished two and
    /// three steps earlier, and so off the chain like the loads. One predictor costs the same
    /// in eight lanes as in four, so the pair takes about one row's time.
    private static func unfilterPaethRowPair(
        rows: (UnsafePointer<UInt8>, UnsafePointer<UInt8>),
        prior: UnsafePointer<UInt8>,
        into destinations: (UnsafeMutablePointer<UInt8>, UnsafeMutablePointer<UInt8>),
        pixelCount: Int
    ) {
        guard pixelCount >= 2 else {
            // The second row would lag behind pixels the first does not have.
            unfilterRGBRowToRGBA(filterType: 4, row: rows.0, prior: prior, into: destinations.0, pixelCount: 1)
            unfilterRGBRowToRGBA(
                filterType: 4, row: rows.1, prior: destinations.0, into: destinations.1, pixelCount: 1)
            return
        }
        // The results of the last three steps; zero before the first, as the pixels left of a row.
        var previous = SIMD8<Int16>()
        var twoBack = SIMD8<Int16>()
        var threeBack = SIMD8<Int16>()
        var firstAboveLeft = SIMD4<Int16>()
        // The step of the first row's pixel `low` and the second row's pixel `high`.
        @inline(__always)
        func step(low: Int, high: Int) -> SIMD8<Int16> {
            let firstAbove = load(prior + 4 &* low)
            let above = SIMD8(lowHalf: firstAbove, highHalf: twoBack.lowHalf)
            let aboveLeft = SIMD8(lowHalf: firstAboveLeft, highHalf: threeBack.lowHalf)
            firstAboveLeft = firstAbove
            let filtered = SIMD8(lowHalf: load(rows.0 + 3 &* low), highHalf: load(rows.1 + 3 &* high))
            let pixel = paethReconstructed(filtered, left: previous, above: above, aboveLeft: aboveLeft)
            (threeBack, twoBack, previous) = (twoBack, previous, pixel)
            return pixel
        }
        // The first two steps' high halves stand for the second row's pixels -2 and -1, which
        // must be zero as the left of its pixel 0 and the above-left of nothing read later.
        let lowHalf = SIMD8<Int16>(-1, -1, -1, -1, 0, 0, 0, 0)
        for x in 0..<2 {
            previous = step(low: x, high: 0) & lowHalf
            storeOpaque(SIMD4<UInt8>(truncatingIfNeeded: previous.lowHalf), to: destinations.0 + 4 &* x)
        }
        for x in 2..<pixelCount {
            storeOpaque(
                step(low: x, high: x &- 2), first: destinations.0 + 4 &* x, second: destinations.1 + 4 &* (x &- 2))
        }
        // The second row's last two pixels; the low halves, past the first row's end, repeat its
        // last pixel and are dropped: no later step reads them.
        for high in (pixelCount &- 2)..<pixelCount {
            let pixel = step(low: pixelCount &- 1, high: high)
            storeOpaque(SIMD4<UInt8>(truncatingIfNeeded: pixel.highHalf), to: destinations.1 + 4 &* high)
        }
    }

    /// Filtered bytes plus their Paeth predictor, modulo 256, in eight lanes.
    ///
    /// The distances are computed so that `a` is one operation from each (`pb = |a - c|` as
    /// `max(a - c, c - a)`, `pc = |a + b - 2c|` as `max(a + (b - 2c), (2c - b) - a)`), the rest
    /// of the work being on `b` and `c`, off the chain of the caller's loop. Lanes hold bytes, so
    /// no sum below overflows; comparisons and `pointwiseMax`/`pointwiseMin` compile to single
    /// instructions, selections written with `replacing(with:where:)` of eight lanes do not, so
    /// they are masks.
    @inline(__always)
    private static func paethReconstructed(
        _ filtered: SIMD8<Int16>, left a: SIMD8<Int16>, above b: SIMD8<Int16>, aboveLeft c: SIMD8<Int16>
    ) -> SIMD8<Int16> {
        @inline(__always)
        func allOnes(where mask: SIMDMask<SIMD8<Int16>>) -> SIMD8<Int16> {
            SIMD8<Int16>().replacing(with: -1, where: mask)
        }
        let distanceToA = pointwiseMax(b &- c, c &- b)
        let twiceC = c &+ c
        let bLessTwiceC = b &- twiceC
        let twiceCLessB = twiceC &- b
        let distanceToB = pointwiseMax(a &- c, c &- a)
        let distanceToC = pointwiseMax(a &+ bLessTwiceC, twiceCLessB &- a)
        let cNearerThanB = allOnes(where: distanceToB .> distanceToC)
        let aNotNearest = allOnes(where: distanceToA .> pointwiseMin(distanceToB, distanceToC))
        let bOrC = b ^ ((b ^ c) & cNearerThanB)
        let predictor = a ^ ((a ^ bOrC) & aNotNearest)
        return (filtered &+ predictor) & 0xFF
    }

    /// Stores the two halves of `pixels`, the first row's and the second row's, each as RGBA with
    /// alpha 255; one narrowing for both.
    @inline(__always)
    private static func storeOpaque(
        _ pixels: SIMD8<Int16>, first: UnsafeMutablePointer<UInt8>, second: UnsafeMutablePointer<UInt8>
    ) {
        let bytes = SIMD8<UInt8>(truncatingIfNeeded: pixels) | SIMD8<UInt8>(0, 0, 0, 255, 0, 0, 0, 255)
        UnsafeMutableRawPointer(first).storeBytes(of: bytes.lowHalf, as: SIMD4<UInt8>.self)
        UnsafeMutableRawPointer(second).storeBytes(of: bytes.highHalf, as: SIMD4<UInt8>.self)
    }
}

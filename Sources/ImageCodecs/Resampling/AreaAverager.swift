/// Shrinks an image by exact area averaging while its rows arrive, top to bottom, one at a time.
///
/// Output pixel `(i, j)` covers the source rectangle `[i·w/outW, (i+1)·w/outW] ×
/// [j·h/outH, (j+1)·h/outH]`, each axis with its own factor; every source pixel weighs by the
/// area of its overlap with that rectangle (fractional at the edges), and the weighted sum is
/// divided by the rectangle's area. Colors are averaged premultiplied by alpha (so a transparent
/// pixel's color never bleeds into its neighbours) and un-premultiplied at the end, because a
/// ``Bitmap`` holds straight alpha.
///
/// The arithmetic is exact: measured in units of `1/outW` source pixels horizontally and `1/outH`
/// vertically, every overlap is a whole number, so the sums are integers and each output sample
/// is `floor(sum / area + 0.5)` of the premultiplied values `round(c·a/255)` — what the
/// thumbsuite references encode, bit for bit.
///
/// Rows are summed vertically first, per source column (a source row overlaps at most two output
/// rows, as `outH ≤ h`): a row inside one output row is added as it is, one widening add per
/// sample that the optimizer vectorizes; the rows straddling an output row's edges are added with
/// their weights. When an output row's last source row has arrived, its column sums are reduced
/// horizontally (a source column overlaps at most two output columns), divided, and written.
/// Memory is the output (the caller's) plus three rows of 32-bit column sums, one of 16-bit
/// sums and one row of premultiplied samples, O(source width); the source image is never held.
final class AreaAverager {
    /// The longest source side the 32-bit column sums allow (each is at most `255 · height`).
    static let maximumSourceSide = (1 << 24) - 1

    let sourceWidth: Int
    let sourceHeight: Int
    let outputWidth: Int
    let outputHeight: Int
    /// The layout of the rows added and of the output; colors are straight alpha in both.
    let format: PixelFormat

    /// The samples in a row: `sourceWidth * format.bytesPerPixel`.
    private let sampleCount: Int
    /// Whether colors must be premultiplied: the format has alpha and the source is not known
    /// to be opaque.
    private let premultiplies: Bool
    /// Where the output rows go: `outputWidth * outputHeight * format.bytesPerPixel` bytes.
    private let output: UnsafeMutablePointer<UInt8>
    /// For each source column: the first output column it overlaps (low 32 bits) and its weight
    /// there (high 32 bits); the rest of its `outputWidth` goes to the next column.
    private let columnSplits: UnsafeMutablePointer<UInt64>
    /// The column sums of the output row being built: source rows entirely inside it (weight
    /// `outputHeight`, applied when the row is written) are added as they are, which is the
    /// common case and needs no multiply; the one or two rows that straddle its top or bottom
    /// edge are added with their weight, to `partialSums`. `nextPartialSums` takes the part of a
    /// straddling row that belongs to the output row after it.
    private let wholeSums: UnsafeMutablePointer<UInt32>
    /// Where whole rows are summed first, in 16 bits (half the memory to stream through per
    /// row), when an output row holds few enough of them that a sum cannot overflow: at most
    /// `sourceHeight / outputHeight` rows of at most 255. Widened into `wholeSums` when the
    /// output row is written. `nil` otherwise, and whole rows go straight into `wholeSums`.
    private let narrowWholeSums: UnsafeMutablePointer<UInt16>?
    private var partialSums: UnsafeMutablePointer<UInt32>
    private var nextPartialSums: UnsafeMutablePointer<UInt32>
    /// Whether `partialSums` / `nextPartialSums` hold anything.
    private var hasPartialRows = false
    private var nextHasPartialRows = false
    /// One source row, premultiplied.
    private let premultiplied: UnsafeMutablePointer<UInt8>
    /// The area of an output pixel in sum units, `w · h`, and its inverse for estimates.
    private let area: UInt64
    private let inverseArea: Double
    private let halfArea: Double

    /// The number of source rows added so far.
    private(set) var sourceRowsAdded = 0
    /// The number of output rows written so far.
    private(set) var outputRowsWritten = 0

    /// Prepares to shrink a `sourceWidth` × `sourceHeight` image.
    ///
    /// - Parameters:
    ///   - sourceWidth: At least `outputWidth`, at most ``maximumSourceSide``.
    ///   - sourceHeight: At least `outputHeight`, at most ``maximumSourceSide``.
    ///   - outputWidth: At least 1.
    ///   - outputHeight: At least 1.
    ///   - format: The layout of the source rows and of the output.
    ///   - isOpaque: Whether every alpha of the source is 255 (an RGB file widened to RGBA), so
    ///     that premultiplying can be skipped. Defaults to `false`.
    ///   - output: Room for `outputWidth * outputHeight * format.bytesPerPixel` bytes, all of
    ///     which are written once every source row has been added.
    init(
        sourceWidth: Int, sourceHeight: Int, outputWidth: Int, outputHeight: Int, format: PixelFormat,
        isOpaque: Bool = false, into output: UnsafeMutablePointer<UInt8>
    ) {
        precondition(outputWidth >= 1 && outputHeight >= 1, "the output must not be empty")
        precondition(outputWidth <= sourceWidth && outputHeight <= sourceHeight, "AreaAverager never enlarges")
        precondition(
            sourceWidth <= Self.maximumSourceSide && sourceHeight <= Self.maximumSourceSide,
            "the source is too large for 32-bit column sums"
        )
        self.sourceWidth = sourceWidth
        self.sourceHeight = sourceHeight
        self.outputWidth = outputWidth
        self.outputHeight = outputHeight
        self.format = format
        self.output = output
        sampleCount = sourceWidth * format.bytesPerPixel
        premultiplies = format.hasAlpha && !isOpaque
        area = UInt64(sourceWidth) * UInt64(sourceHeight)
        inverseArea = 1 / Double(area)
        halfArea = Double(area) / 2

        columnSplits = Self.makeColumnSplits(sourceWidth: sourceWidth, outputWidth: outputWidth)
        wholeSums = .allocate(capacity: sampleCount)
        wholeSums.initialize(repeating: 0, count: sampleCount)
        if sourceHeight / outputHeight <= Int(UInt16.max) / 255 {
            let narrow = UnsafeMutablePointer<UInt16>.allocate(capacity: sampleCount)
            narrow.initialize(repeating: 0, count: sampleCount)
            narrowWholeSums = narrow
        } else {
            narrowWholeSums = nil
        }
        partialSums = .allocate(capacity: sampleCount)
        partialSums.initialize(repeating: 0, count: sampleCount)
        nextPartialSums = .allocate(capacity: sampleCount)
        nextPartialSums.initialize(repeating: 0, count: sampleCount)
        premultiplied = .allocate(capacity: premultiplies ? sampleCount : 0)
    }

    /// For each source column, the output column it starts in (low 32 bits) and its weight
    /// there (high 32 bits); the rest of its weight goes to the next output column. The caller
    /// deallocates the `sourceWidth` entries.
    static func makeColumnSplits(sourceWidth: Int, outputWidth: Int) -> UnsafeMutablePointer<UInt64> {
        let splits = UnsafeMutablePointer<UInt64>.allocate(capacity: sourceWidth)
        // Source column x spans [x·outW, (x+1)·outW) in sum units, output column i spans
        // [i·w, (i+1)·w); outW ≤ w, so a source column overlaps one or two output columns.
        for x in 0..<sourceWidth {
            let start = x * outputWidth
            let column = start / sourceWidth
            let firstWeight = min(outputWidth, (column + 1) * sourceWidth - start)
            splits[x] = UInt64(column) | UInt64(firstWeight) << 32
        }
        return splits
    }

    deinit {
        columnSplits.deallocate()
        wholeSums.deallocate()
        narrowWholeSums?.deallocate()
        partialSums.deallocate()
        nextPartialSums.deallocate()
        premultiplied.deallocate()
    }

    /// Whether every source row has been added (and so every output row written).
    var isComplete: Bool { sourceRowsAdded == sourceHeight }

    /// Adds the next source row, writing the output row it completes, if any.
    ///
    /// - Parameter row: `sourceWidth` pixels in ``format``, straight alpha. At most
    ///   `sourceHeight` rows may be added.
    /// - Complexity: O(`sourceWidth`).
    func addRow(_ row: UnsafePointer<UInt8>) {
        precondition(sourceRowsAdded < sourceHeight, "more rows than the source has")
        let samples: UnsafePointer<UInt8>
        if premultiplies {
            premultiply(row)
            samples = UnsafePointer(premultiplied)
        } else {
            samples = row
        }
        // Source row y spans [y·outH, (y+1)·outH) in sum units, output row j spans [j·h, (j+1)·h).
        let start = sourceRowsAdded * outputHeight
        let boundary = (outputRowsWritten + 1) * sourceHeight
        let firstWeight = min(outputHeight, boundary - start)
        let secondWeight = outputHeight - firstWeight
        if firstWeight == outputHeight {
            // Proven at init: the buffers hold `sampleCount` elements.
            if let sums = narrowWholeSums {
                for index in 0..<sampleCount {
                    sums[index] &+= UInt16(samples[index])
                }
            } else {
                let sums = wholeSums
                for index in 0..<sampleCount {
                    sums[index] &+= UInt32(samples[index])
                }
            }
        } else {
            Self.accumulate(samples, count: sampleCount, into: partialSums, weight: firstWeight)
            hasPartialRows = true
            if secondWeight > 0 {
                Self.accumulate(samples, count: sampleCount, into: nextPartialSums, weight: secondWeight)
                nextHasPartialRows = true
            }
        }
        sourceRowsAdded += 1
        if sourceRowsAdded * outputHeight >= boundary {
            if let narrow = narrowWholeSums {
                let sums = wholeSums
                for index in 0..<sampleCount {
                    sums[index] = UInt32(narrow[index])
                }
                narrow.update(repeating: 0, count: sampleCount)
            }
            writeOutputRow()
            // The next output row already holds this source row's remainder; the finished one
            // is cleared to become the row after it.
            if narrowWholeSums == nil { wholeSums.update(repeating: 0, count: sampleCount) }
            swap(&partialSums, &nextPartialSums)
            if hasPartialRows { nextPartialSums.update(repeating: 0, count: sampleCount) }
            hasPartialRows = nextHasPartialRows
            nextHasPartialRows = false
        }
    }

    /// `sums[i] += samples[i] · weight`. With whole rows counted `outputHeight` times, a
    /// column's total stays at most `255 · sourceHeight` < 2³², as the weights of one output row
    /// add up to `sourceHeight`.
    @inline(__always)
    private static func accumulate(
        _ samples: UnsafePointer<UInt8>, count: Int, into sums: UnsafeMutablePointer<UInt32>, weight: Int
    ) {
        let weight = UInt32(truncatingIfNeeded: weight)
        // Proven at init: both buffers hold `sampleCount` elements.
        for index in 0..<count {
            sums[index] &+= UInt32(samples[index]) &* weight
        }
    }

    /// Writes the row's samples premultiplied, `round(c·a/255)`, into ``premultiplied``.
    private func premultiply(_ row: UnsafePointer<UInt8>) {
        switch format {
        case .rgba8:
            for pixel in 0..<sourceWidth {
                let base = pixel &* 4
                let alpha = UInt32(row[base &+ 3])
                premultiplied[base] = Self.premultiply(row[base], alpha)
                premultiplied[base &+ 1] = Self.premultiply(row[base &+ 1], alpha)
                premultiplied[base &+ 2] = Self.premultiply(row[base &+ 2], alpha)
                premultiplied[base &+ 3] = row[base &+ 3]
            }
        case .grayAlpha8:
            for pixel in 0..<sourceWidth {
                let base = pixel &* 2
                premultiplied[base] = Self.premultiply(row[base], UInt32(row[base &+ 1]))
                premultiplied[base &+ 1] = row[base &+ 1]
            }
        case .gray8:
            premultiplied.update(from: row, count: sampleCount)
        }
    }

    /// Reduces the finished row's column sums to output columns, divides them by the area
    /// rounding half up, un-premultiplies and writes output row ``outputRowsWritten``.
    ///
    /// Per output column: `outputHeight · (outputWidth · Σ interior + Σ edge · weight)
    /// + Σ partial · weight`, where interior source columns lie inside the output column (one
    /// add each), edge columns straddle its sides, and partial sums exist only if a source row
    /// straddled this output row's edges.
    private func writeOutputRow() {
        let channels = format.bytesPerPixel
        let rowStart = output + outputRowsWritten * outputWidth * channels
        let fullWeight = UInt64(outputWidth)
        let rowWeight = UInt64(outputHeight)
        let hasPartial = hasPartialRows
        // Locals, so the loop reads no class properties (and runs no exclusivity checks).
        let splits = UnsafePointer(columnSplits)
        let wholeSums = UnsafePointer(self.wholeSums)
        let partialSums = UnsafePointer(self.partialSums)
        let width = sourceWidth
        let outputWidth = self.outputWidth
        var interior = SIMD4<UInt64>()
        var edges = SIMD4<UInt64>()
        var partial = SIMD4<UInt64>()
        var column = 0
        // Proven at init: `columnSplits` has `sourceWidth` entries whose columns are below
        // `outputWidth`; the sums hold `sourceWidth * channels` elements.
        for x in 0..<width {
            let firstWeight = splits[x] &>> 32
            let whole = Self.loadColumn(wholeSums, x, channels: channels)
            let part = hasPartial ? Self.loadColumn(partialSums, x, channels: channels) : SIMD4<UInt64>()
            if firstWeight == fullWeight {
                interior &+= whole
                if hasPartial { partial &+= part &* fullWeight }
                // A column that ends exactly on the output column's right edge completes it.
                guard (x &+ 1) &* outputWidth == (column &+ 1) &* width else { continue }
                storeAverage((interior &* fullWeight &+ edges) &* rowWeight &+ partial, to: rowStart, column: column)
                interior = SIMD4<UInt64>()
                edges = SIMD4<UInt64>()
                partial = SIMD4<UInt64>()
            } else {
                edges &+= whole &* firstWeight
                if hasPartial { partial &+= part &* firstWeight }
                storeAverage((interior &* fullWeight &+ edges) &* rowWeight &+ partial, to: rowStart, column: column)
                let secondWeight = fullWeight &- firstWeight
                interior = SIMD4<UInt64>()
                edges = whole &* secondWeight
                partial = hasPartial ? part &* secondWeight : SIMD4<UInt64>()
            }
            column &+= 1
        }
        if premultiplies {
            for pixel in 0..<outputWidth {
                let start = rowStart + pixel &* channels
                Self.unpremultiply(start, colorCount: channels &- 1, alpha: start[channels &- 1])
            }
        }
        outputRowsWritten += 1
    }

    /// Source column `x` of `sums` in the low `channels` lanes.
    @inline(__always)
    private static func loadColumn(_ sums: UnsafePointer<UInt32>, _ x: Int, channels: Int) -> SIMD4<UInt64> {
        switch channels {
        case 4:
            let lanes = UnsafeRawPointer(sums).loadUnaligned(fromByteOffset: x &* 16, as: SIMD4<UInt32>.self)
            return SIMD4<UInt64>(truncatingIfNeeded: lanes)
        case 2:
            return SIMD4(UInt64(sums[x &* 2]), UInt64(sums[x &* 2 &+ 1]), 0, 0)
        default:
            return SIMD4(UInt64(sums[x]), 0, 0, 0)
        }
    }

    /// Writes the rounded averages of the low `format.bytesPerPixel` lanes as output `column`.
    @inline(__always)
    private func storeAverage(_ sums: SIMD4<UInt64>, to rowStart: UnsafeMutablePointer<UInt8>, column: Int) {
        let channels = format.bytesPerPixel
        for channel in 0..<channels {
            rowStart[column &* channels &+ channel] = UInt8(truncatingIfNeeded: roundedAverage(sums[channel]))
        }
    }

    /// `floor(sum / area + 0.5)`, exactly: a floating-point estimate corrected by integer checks
    /// (the estimate is off by less than one, as the sum has fewer than 58 bits).
    @inline(__always)
    private func roundedAverage(_ sum: UInt64) -> UInt64 {
        let numerator = 2 &* sum &+ area
        let denominator = 2 &* area
        // Signed conversions are single instructions; every value here is below 2⁶².
        let estimate = (Double(Int64(truncatingIfNeeded: sum)) + halfArea) * inverseArea
        var quotient = UInt64(truncatingIfNeeded: Int64(estimate))
        if quotient &* denominator > numerator { quotient &-= 1 }
        if (quotient &+ 1) &* denominator <= numerator { quotient &+= 1 }
        return quotient
    }

    /// `round(c·a/255)`, rounding half up: `(t + t >> 8) >> 8` with `t = c·a + 128` is exactly
    /// `round(x / 255)` for `x ≤ 255²`.
    @inline(__always)
    static func premultiply(_ color: UInt8, _ alpha: UInt32) -> UInt8 {
        let product = UInt32(color) &* alpha &+ 128
        return UInt8(truncatingIfNeeded: (product &+ (product &>> 8)) &>> 8)
    }

    /// Turns premultiplied colors back into straight ones: `round(c·255/a)`, 0 where `a` is 0.
    /// Re-premultiplying gives the same `c` back, since the color never exceeds the alpha.
    @inline(__always)
    static func unpremultiply(_ pixel: UnsafeMutablePointer<UInt8>, colorCount: Int, alpha: UInt8) {
        switch alpha {
        case 255:
            return
        case 0:
            for index in 0..<colorCount { pixel[index] = 0 }
        default:
            let divisor = Int(alpha)
            for index in 0..<colorCount {
                pixel[index] = UInt8(min(255, (Int(pixel[index]) * 255 + divisor / 2) / divisor))
            }
        }
    }
}

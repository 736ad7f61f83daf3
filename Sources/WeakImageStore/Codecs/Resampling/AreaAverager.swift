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
/// is `floor(sum / area + 0.5)` of the premultiplied value `round(c·a/255)` — what the thumbsuite
/// references encode, bit for bit.
///
/// Memory is the output (owned by the caller) plus one row of horizontal sums and two rows of
/// vertical accumulators, all O(output width), and one entry per source column; the source is
/// never held: a source row contributes to at most two output rows (`outH ≤ h`), and an output
/// row is finished and written as soon as the last source row it covers has been added.
final class AreaAverager {
    /// The widest source the 32-bit horizontal sums allow (each is at most `255 · width`).
    static let maximumSourceWidth = (1 << 24) - 1
    /// The most source pixels the 64-bit vertical sums allow (each is at most `255 · w · h`).
    static let maximumSourcePixelCount = 1 << 48

    let sourceWidth: Int
    let sourceHeight: Int
    let outputWidth: Int
    let outputHeight: Int
    /// The layout of the rows added and of the output; colors are straight alpha in both.
    let format: PixelFormat

    /// The samples a pixel has in the sums: 1, 2 or 4 (the format's bytes per pixel).
    private let channelCount: Int
    /// Where the output rows go: `outputWidth * outputHeight * format.bytesPerPixel` bytes.
    private let output: UnsafeMutablePointer<UInt8>
    /// For each source column: the first output column it overlaps (low 32 bits) and its weight
    /// there (high 32 bits); the rest of its `outputWidth` goes to the next column.
    private let columnSplits: UnsafeMutablePointer<UInt64>
    /// The current source row's weighted sums per output column, premultiplied, with one spare
    /// column that the last source column's zero-weight remainder lands in.
    private let rowSums: UnsafeMutablePointer<UInt32>
    /// The sums of the output row being built, and of the one after it.
    private var currentRow: UnsafeMutablePointer<UInt64>
    private var nextRow: UnsafeMutablePointer<UInt64>
    /// `1 / (w · h)` (the area of an output pixel in sum units) for the division estimate.
    private let inverseArea: Double
    private let area: UInt64

    /// The number of source rows added so far.
    private(set) var sourceRowsAdded = 0
    /// The number of output rows written so far.
    private(set) var outputRowsWritten = 0

    /// Prepares to shrink a `sourceWidth` × `sourceHeight` image.
    ///
    /// - Parameters:
    ///   - sourceWidth: At least `outputWidth`, at most ``maximumSourceWidth``.
    ///   - sourceHeight: At least `outputHeight`; `sourceWidth * sourceHeight` at most
    ///     ``maximumSourcePixelCount``.
    ///   - outputWidth: At least 1.
    ///   - outputHeight: At least 1.
    ///   - format: The layout of the source rows and of the output.
    ///   - output: Room for `outputWidth * outputHeight * format.bytesPerPixel` bytes, all of
    ///     which are written once every source row has been added.
    init(
        sourceWidth: Int, sourceHeight: Int, outputWidth: Int, outputHeight: Int, format: PixelFormat,
        into output: UnsafeMutablePointer<UInt8>
    ) {
        precondition(outputWidth >= 1 && outputHeight >= 1, "the output must not be empty")
        precondition(outputWidth <= sourceWidth && outputHeight <= sourceHeight, "AreaAverager never enlarges")
        precondition(sourceWidth <= Self.maximumSourceWidth, "the source is too wide for 32-bit sums")
        precondition(
            sourceWidth.multipliedReportingOverflow(by: sourceHeight).partialValue <= Self.maximumSourcePixelCount
                && sourceHeight <= Self.maximumSourcePixelCount,
            "the source has too many pixels for 64-bit sums"
        )
        self.sourceWidth = sourceWidth
        self.sourceHeight = sourceHeight
        self.outputWidth = outputWidth
        self.outputHeight = outputHeight
        self.format = format
        self.output = output
        channelCount = format.bytesPerPixel
        area = UInt64(sourceWidth) * UInt64(sourceHeight)
        inverseArea = 1 / Double(area)

        columnSplits = .allocate(capacity: sourceWidth)
        // Source column x spans [x·outW, (x+1)·outW) in sum units, output column i spans
        // [i·w, (i+1)·w); outW ≤ w, so a source column overlaps one or two output columns.
        for x in 0..<sourceWidth {
            let start = x * outputWidth
            let column = start / sourceWidth
            let firstWeight = min(outputWidth, (column + 1) * sourceWidth - start)
            columnSplits[x] = UInt64(column) | UInt64(firstWeight) << 32
        }
        // Four lanes a column whatever the format, so one layout serves every loop.
        rowSums = .allocate(capacity: (outputWidth + 1) * 4)
        rowSums.initialize(repeating: 0, count: (outputWidth + 1) * 4)
        currentRow = .allocate(capacity: outputWidth * channelCount)
        nextRow = .allocate(capacity: outputWidth * channelCount)
        currentRow.initialize(repeating: 0, count: outputWidth * channelCount)
        nextRow.initialize(repeating: 0, count: outputWidth * channelCount)
    }

    deinit {
        columnSplits.deallocate()
        rowSums.deallocate()
        currentRow.deallocate()
        nextRow.deallocate()
    }

    /// Whether every source row has been added (and so every output row written).
    var isComplete: Bool { sourceRowsAdded == sourceHeight }

    /// Adds the next source row, writing each output row it completes.
    ///
    /// - Parameter row: `sourceWidth` pixels in ``format``, straight alpha. At most
    ///   `sourceHeight` rows may be added.
    /// - Complexity: O(`sourceWidth + outputWidth`).
    func addRow(_ row: UnsafePointer<UInt8>) {
        precondition(sourceRowsAdded < sourceHeight, "more rows than the source has")
        sumColumns(of: row)
        // Source row y spans [y·outH, (y+1)·outH) in sum units, output row j spans [j·h, (j+1)·h).
        let start = sourceRowsAdded * outputHeight
        let boundary = (outputRowsWritten + 1) * sourceHeight
        let firstWeight = UInt64(min(outputHeight, boundary - start))
        let secondWeight = UInt64(outputHeight) - firstWeight
        accumulate(into: currentRow, weight: firstWeight)
        if secondWeight > 0 { accumulate(into: nextRow, weight: secondWeight) }
        sourceRowsAdded += 1
        if sourceRowsAdded * outputHeight >= boundary {
            writeOutputRow()
            // The next output row already holds this source row's remainder; the finished one
            // is cleared to become the row after it.
            swap(&currentRow, &nextRow)
            nextRow.update(repeating: 0, count: outputWidth * channelCount)
        }
    }

    /// Fills ``rowSums`` with the row's premultiplied samples, weighted per output column.
    private func sumColumns(of row: UnsafePointer<UInt8>) {
        // Proven at init: `rowSums` has `outputWidth + 1` columns of 4 lanes and every split's
        // column is below `outputWidth`; `row` has `sourceWidth` pixels by contract.
        rowSums.update(repeating: 0, count: (outputWidth + 1) * 4)
        let fullWeight = UInt32(outputWidth)
        switch format {
        case .rgba8:
            // Scalar lanes: the optimizer vectorizes them, and unoptimized builds (tests) stay
            // far faster than with SIMD types.
            for x in 0..<sourceWidth {
                let split = columnSplits[x]
                let lane = Int(truncatingIfNeeded: split & 0xFFFF_FFFF) &* 4
                let firstWeight = UInt32(truncatingIfNeeded: split &>> 32)
                let secondWeight = fullWeight &- firstWeight
                let pixel = row + x &* 4
                let alpha = UInt32(pixel[3])
                let red = Self.premultiply(UInt32(pixel[0]), alpha)
                let green = Self.premultiply(UInt32(pixel[1]), alpha)
                let blue = Self.premultiply(UInt32(pixel[2]), alpha)
                rowSums[lane] &+= red &* firstWeight
                rowSums[lane &+ 1] &+= green &* firstWeight
                rowSums[lane &+ 2] &+= blue &* firstWeight
                rowSums[lane &+ 3] &+= alpha &* firstWeight
                rowSums[lane &+ 4] &+= red &* secondWeight
                rowSums[lane &+ 5] &+= green &* secondWeight
                rowSums[lane &+ 6] &+= blue &* secondWeight
                rowSums[lane &+ 7] &+= alpha &* secondWeight
            }
        case .grayAlpha8:
            for x in 0..<sourceWidth {
                let split = columnSplits[x]
                let lane = Int(truncatingIfNeeded: split & 0xFFFF_FFFF) &* 4
                let firstWeight = UInt32(truncatingIfNeeded: split &>> 32)
                let alpha = UInt32(row[x &* 2 &+ 1])
                let gray = Self.premultiply(UInt32(row[x &* 2]), alpha)
                rowSums[lane] &+= gray &* firstWeight
                rowSums[lane &+ 1] &+= alpha &* firstWeight
                rowSums[lane &+ 4] &+= gray &* (fullWeight &- firstWeight)
                rowSums[lane &+ 5] &+= alpha &* (fullWeight &- firstWeight)
            }
        case .gray8:
            for x in 0..<sourceWidth {
                let split = columnSplits[x]
                let lane = Int(truncatingIfNeeded: split & 0xFFFF_FFFF) &* 4
                let firstWeight = UInt32(truncatingIfNeeded: split &>> 32)
                let gray = UInt32(row[x])
                rowSums[lane] &+= gray &* firstWeight
                rowSums[lane &+ 4] &+= gray &* (fullWeight &- firstWeight)
            }
        }
    }

    /// Adds `weight` times the row sums to an output row's sums.
    private func accumulate(into target: UnsafeMutablePointer<UInt64>, weight: UInt64) {
        for column in 0..<outputWidth {
            for channel in 0..<channelCount {
                target[column &* channelCount &+ channel] &+= UInt64(rowSums[column &* 4 &+ channel]) &* weight
            }
        }
    }

    /// Divides the finished row's sums by the area, rounding half up, un-premultiplies and writes
    /// them as output row ``outputRowsWritten``.
    private func writeOutputRow() {
        let rowStart = output + outputRowsWritten * outputWidth * channelCount
        let sampleCount = outputWidth * channelCount
        for index in 0..<sampleCount {
            rowStart[index] = UInt8(truncatingIfNeeded: roundedAverage(currentRow[index]))
        }
        switch format {
        case .gray8:
            break
        case .grayAlpha8:
            for pixel in 0..<outputWidth {
                Self.unpremultiply(rowStart + pixel &* 2, colorCount: 1, alpha: rowStart[pixel &* 2 &+ 1])
            }
        case .rgba8:
            for pixel in 0..<outputWidth {
                Self.unpremultiply(rowStart + pixel &* 4, colorCount: 3, alpha: rowStart[pixel &* 4 &+ 3])
            }
        }
        outputRowsWritten += 1
    }

    /// `floor(sum / area + 0.5)`, exactly: a floating-point estimate corrected by integer checks
    /// (the estimate is off by less than one, as the sum has fewer than 58 bits).
    @inline(__always)
    private func roundedAverage(_ sum: UInt64) -> UInt64 {
        let numerator = 2 &* sum &+ area
        let denominator = 2 &* area
        var quotient = UInt64((Double(sum) + Double(area) * 0.5) * inverseArea)
        if quotient &* denominator > numerator { quotient &-= 1 }
        if (quotient &+ 1) &* denominator <= numerator { quotient &+= 1 }
        return quotient
    }

    /// `round(c·a/255)`, rounding half up.
    @inline(__always)
    static func premultiply(_ color: UInt32, _ alpha: UInt32) -> UInt32 {
        let product = color &* alpha &+ 128
        return (product &+ (product &>> 8)) &>> 8
    }

    /// Turns premultiplied colors back into straight ones: `round(c·255/a)`, 0 where `a` is 0.
    /// Re-premultiplying gives the same `c` back, since the color never exceeds the alpha.
    @inline(__always)
    private static func unpremultiply(_ pixel: UnsafeMutablePointer<UInt8>, colorCount: Int, alpha: UInt8) {
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

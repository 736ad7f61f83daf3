/// Shrinks an image by ``AreaAverager``'s exact area averaging while its rows arrive in any
/// order and each as a comb of pixels — the passes of an Adam7-interlaced PNG — so a thumbnail
/// of an interlaced file needs neither its full-size pixels nor its filtered data.
///
/// Output pixel `(i, j)` is `floor(S / (w·h) + 0.5)` of `S = Σ s(x, y) · wx(x, i) · wy(y, j)`,
/// the premultiplied samples weighed by their overlap with the output pixel in the units
/// ``AreaAverager`` uses (`1/outW` source pixels across, `1/outH` down). Integer sums do not
/// depend on the order they are added in, so the result is ``AreaAverager``'s, bit for bit:
/// `S ≤ 255 · w · h < 2⁵⁶` for sides below 2²⁴, so 64-bit sums hold it.
///
/// Memory: the caller's output, a 64-bit sum per output sample (8 times the output), one row of
/// 64-bit sums across the output, a column split per source column and one premultiplied row.
final class PassAreaAverager {
    private let sourceWidth: Int
    private let sourceHeight: Int
    private let outputWidth: Int
    private let outputHeight: Int
    private let channels: Int
    private let premultiplies: Bool
    private let output: UnsafeMutablePointer<UInt8>
    /// For each source column: the first output column it overlaps (low 32 bits) and its weight
    /// there (high 32 bits), as in ``AreaAverager``.
    private let columnSplits: UnsafeMutablePointer<UInt64>
    /// `S` of every output sample, row-major.
    private let sums: UnsafeMutablePointer<UInt64>
    /// One source row reduced to output columns: `Σ s · wx`.
    private let rowSums: UnsafeMutablePointer<UInt64>
    /// One row of premultiplied samples.
    private let premultiplied: UnsafeMutablePointer<UInt8>

    /// The scratch besides the sums, for peak memory estimates: the row of sums across the
    /// output, the column splits and the premultiplied row.
    static func rowScratchBytes(sourceWidth: Int, outputWidth: Int, bytesPerPixel: Int) -> Int {
        8 * outputWidth * bytesPerPixel + 8 * sourceWidth + sourceWidth * bytesPerPixel
    }

    /// Prepares to shrink a `sourceWidth` × `sourceHeight` image.
    ///
    /// - Parameters:
    ///   - sourceWidth: At least `outputWidth`, at most ``AreaAverager/maximumSourceSide``.
    ///   - sourceHeight: At least `outputHeight`, at most ``AreaAverager/maximumSourceSide``.
    ///   - outputWidth: At least 1.
    ///   - outputHeight: At least 1.
    ///   - format: The layout of the rows added and of the output.
    ///   - isOpaque: Whether every alpha of the source is 255, so premultiplying can be skipped.
    ///   - output: Room for `outputWidth * outputHeight * format.bytesPerPixel` bytes, all of
    ///     which ``finish()`` writes.
    init(
        sourceWidth: Int, sourceHeight: Int, outputWidth: Int, outputHeight: Int, format: PixelFormat,
        isOpaque: Bool, into output: UnsafeMutablePointer<UInt8>
    ) {
        precondition(outputWidth >= 1 && outputHeight >= 1, "the output must not be empty")
        precondition(outputWidth <= sourceWidth && outputHeight <= sourceHeight, "PassAreaAverager never enlarges")
        precondition(
            sourceWidth <= AreaAverager.maximumSourceSide && sourceHeight <= AreaAverager.maximumSourceSide,
            "the source is too large for 64-bit sums")
        self.sourceWidth = sourceWidth
        self.sourceHeight = sourceHeight
        self.outputWidth = outputWidth
        self.outputHeight = outputHeight
        channels = format.bytesPerPixel
        premultiplies = format.hasAlpha && !isOpaque
        self.output = output
        columnSplits = AreaAverager.makeColumnSplits(sourceWidth: sourceWidth, outputWidth: outputWidth)
        let sampleCount = outputWidth * outputHeight * channels
        sums = .allocate(capacity: sampleCount)
        sums.initialize(repeating: 0, count: sampleCount)
        rowSums = .allocate(capacity: outputWidth * channels)
        rowSums.initialize(repeating: 0, count: outputWidth * channels)
        premultiplied = .allocate(capacity: sourceWidth * channels)
    }

    deinit {
        columnSplits.deallocate()
        sums.deallocate()
        rowSums.deallocate()
        premultiplied.deallocate()
    }

    /// Adds `count` pixels of source row `y`, at columns `xStart`, `xStart + xStep`, ….
    ///
    /// - Parameters:
    ///   - pixels: `count` pixels in the format given at init, straight alpha.
    ///   - count: At least 1; `xStart + (count - 1) * xStep < sourceWidth`.
    ///   - y: The source row, below `sourceHeight`.
    ///   - xStart: The column of the first pixel.
    ///   - xStep: The distance between the pixels' columns; at least 1.
    func addPixels(_ pixels: UnsafePointer<UInt8>, count: Int, y: Int, xStart: Int, xStep: Int) {
        precondition(y < sourceHeight && xStart + (count - 1) * xStep < sourceWidth, "pixels outside the source")
        let channels = self.channels
        let samples: UnsafePointer<UInt8>
        if premultiplies {
            for pixel in 0..<count {
                let base = pixel &* channels
                let alpha = UInt32(pixels[base &+ channels &- 1])
                for channel in 0..<(channels &- 1) {
                    premultiplied[base &+ channel] = AreaAverager.premultiply(pixels[base &+ channel], alpha)
                }
                premultiplied[base &+ channels &- 1] = pixels[base &+ channels &- 1]
            }
            samples = UnsafePointer(premultiplied)
        } else {
            samples = pixels
        }
        // Horizontally: each source column goes to one or two output columns (outW ≤ w).
        let fullWeight = UInt64(outputWidth)
        for pixel in 0..<count {
            let split = columnSplits[xStart &+ pixel &* xStep]
            let column = Int(truncatingIfNeeded: split & 0xFFFF_FFFF)
            let firstWeight = split &>> 32
            let first = rowSums + column &* channels
            let source = samples + pixel &* channels
            for channel in 0..<channels {
                first[channel] &+= UInt64(source[channel]) &* firstWeight
            }
            if firstWeight < fullWeight {
                let second = first + channels
                for channel in 0..<channels {
                    second[channel] &+= UInt64(source[channel]) &* (fullWeight &- firstWeight)
                }
            }
        }
        // Vertically: source row y spans [y·outH, (y+1)·outH), output row j spans [j·h, (j+1)·h).
        let start = y * outputHeight
        let row = start / sourceHeight
        let firstWeight = min(outputHeight, (row + 1) * sourceHeight - start)
        let rowSampleCount = outputWidth * channels
        Self.accumulate(rowSums, count: rowSampleCount, into: sums + row * rowSampleCount, weight: firstWeight)
        if firstWeight < outputHeight {
            Self.accumulate(
                rowSums, count: rowSampleCount, into: sums + (row + 1) * rowSampleCount,
                weight: outputHeight - firstWeight)
        }
        rowSums.update(repeating: 0, count: rowSampleCount)
    }

    /// `sums[i] += row[i] · weight`.
    @inline(__always)
    private static func accumulate(
        _ row: UnsafePointer<UInt64>, count: Int, into sums: UnsafeMutablePointer<UInt64>, weight: Int
    ) {
        let weight = UInt64(truncatingIfNeeded: weight)
        for index in 0..<count {
            sums[index] &+= row[index] &* weight
        }
    }

    /// Writes the output once every source pixel has been added: each sum divided by the area,
    /// rounding half up, then un-premultiplied.
    func finish() {
        let area = UInt64(sourceWidth) * UInt64(sourceHeight)
        let sampleCount = outputWidth * outputHeight * channels
        for index in 0..<sampleCount {
            // floor(S / area + 0.5) = floor((2S + area) / 2·area); 2S + area < 2⁵⁸.
            output[index] = UInt8(truncatingIfNeeded: (2 &* sums[index] &+ area) / (2 &* area))
        }
        guard premultiplies else { return }
        for pixel in 0..<(outputWidth * outputHeight) {
            let start = output + pixel &* channels
            AreaAverager.unpremultiply(start, colorCount: channels &- 1, alpha: start[channels &- 1])
        }
    }
}

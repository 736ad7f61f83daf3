/// The memory a JPEG decode holds at its peak, from the frame header and the first scan header:
/// what ``JPEGDecoder/maximumDecodingBytes`` is checked against before the coefficients or the
/// output are allocated.
///
/// | part                  | bytes                                                              |
/// |-----------------------|--------------------------------------------------------------------|
/// | output                | `ceil(w / N) · ceil(h / N)` pixels at 4 bytes (1 for gray); twice for an EXIF orientation that turns or flips it (a copy is made) |
/// | coefficients          | one MCU row (a sequential file whose first scan holds every component), else every block: 128 bytes a block, 2 more at 1/8 for a progressive file's DC planes |
/// | samples               | a ring of three MCU rows of each component at its transform size, and the upsamplers' rows |
/// | smoothing             | one block row of the widest component                              |
/// | thumbnail             | the averaged output, when the decode is a thumbnail's               |
enum JPEGDecodePeak {
    /// The peak of decoding `frame` at 1/`scaleDenominator`.
    ///
    /// - Parameters:
    ///   - frame: The frame header.
    ///   - streams: Whether the first scan holds every component of a sequential frame, so only
    ///     one MCU row of coefficients exists at a time.
    ///   - scaleDenominator: 1, 2, 4 or 8.
    ///   - reorients: Whether the EXIF orientation makes a turned or flipped copy of the output.
    ///   - thumbnailBytes: The bytes of a thumbnail averaged from the output afterwards, or 0.
    /// - Returns: The bytes, saturated at `Int.max`.
    static func bytes(
        frame: JPEGFrame, streams: Bool, scaleDenominator: Int, reorients: Bool, thumbnailBytes: Int
    ) -> Int {
        let single = frame.components.count == 1
        let outputWidth = ceilDivide(frame.width, scaleDenominator)
        let outputHeight = ceilDivide(frame.height, scaleDenominator)
        let output = DecodingPeak.product(outputWidth, outputHeight, single ? 1 : 4)
        let blocks = frame.components.reduce(0) { total, component in
            let rows = streams ? (single ? 1 : component.verticalSampling) : component.blockRows
            return DecodingPeak.sum(total, DecodingPeak.product(component.blocksPerLine, rows))
        }
        let separatesDC = !streams && frame.process == .progressive && scaleDenominator == 8
        let coefficients = DecodingPeak.product(blocks, separatesDC ? 130 : 128)
        let sizes = JPEGSamplePlanes.transformSizes(frame: frame, scaleDenominator: scaleDenominator)
        let samples = zip(frame.components, sizes).reduce(0) { total, pair in
            let (component, size) = pair
            let sampledWidth = DecodingPeak.product(component.widthInBlocks, size)
            let ring = DecodingPeak.product(sampledWidth, (single ? 1 : component.verticalSampling) * 3, size)
            // The upsampler's output row and its 16-bit column sums.
            return DecodingPeak.sum(total, ring, outputWidth, DecodingPeak.product(4, sampledWidth), 16)
        }
        let widest = frame.components.map(\.widthInBlocks).max() ?? 0
        let smoothing = DecodingPeak.product(widest, 128)
        // The multiplier tables and the range limit table.
        let tables = 4 * 128 + 1024
        return DecodingPeak.sum(
            reorients ? DecodingPeak.product(2, output) : output, coefficients, samples, smoothing, tables,
            thumbnailBytes)
    }
}

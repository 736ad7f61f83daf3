/// The outcome of one ``DecodeSpeedInput``: our decoder's speed and libpng's, measured in the
/// same run with interleaved samples.
struct DecodeSpeedResult {
    /// Throughput over the samples of one decoder, in MB (10⁶ bytes) of decoded pixels per second.
    struct Measurement {
        /// The median of the samples.
        let median: Double
        /// The slowest sample.
        let minimum: Double
        /// The fastest sample.
        let maximum: Double
        /// The number of samples.
        let sampleCount: Int

        /// Summarizes per-sample throughputs.
        ///
        /// - Parameter samples: MB/s of each sample; not empty.
        init(samples: [Double]) {
            precondition(!samples.isEmpty, "a measurement needs at least one sample")
            let sorted = samples.sorted()
            let middle = sorted.count / 2
            median = sorted.count % 2 == 1 ? sorted[middle] : (sorted[middle - 1] + sorted[middle]) / 2
            minimum = sorted[0]
            maximum = sorted[sorted.count - 1]
            sampleCount = sorted.count
        }

        /// The spread of the samples around the median: (maximum − minimum) / median, in percent.
        var spreadPercent: Double {
            median > 0 ? (maximum - minimum) / median * 100 : 0
        }

        /// The median and half the spread, for a table cell: `244.1 ±2%`.
        var summary: String {
            String(format: "%.1f ±%.0f%%", median, spreadPercent / 2)
        }
    }

    /// The input's label.
    let label: String
    /// The pixels of the input's smallest image: goals for large images judge only inputs whose
    /// every image is large.
    let smallestPixelCount: Int
    /// The bytes of decoded pixels one sample produces (with our decoder's output formats, which
    /// libpng is configured to match).
    let decodedBytes: Int
    /// Our ``PNGDecoder``.
    let ours: Measurement
    /// libpng through the shim, or `nil` when the shim could not be loaded.
    let libpng: Measurement?

    /// Our median throughput divided by libpng's: above 1 means we are faster.
    var ratio: Double? {
        libpng.map { ours.median / $0.median }
    }
}

/// How PNG stores samples in a row's bytes (PNG specification, section 7.2).
public enum PNGSamplePacking {
    /// Packs samples into bytes: 1-, 2- and 4-bit samples most significant first, the last byte
    /// padded with zero bits; 16-bit samples big-endian.
    ///
    /// - Parameters:
    ///   - samples: The samples of one row, each below `1 << bitDepth`.
    ///   - bitDepth: 1, 2, 4, 8 or 16.
    /// - Returns: The row's bytes.
    public static func pack(_ samples: [Int], bitDepth: Int) -> [UInt8] {
        precondition([1, 2, 4, 8, 16].contains(bitDepth), "PNG bit depths are 1, 2, 4, 8 and 16")
        if bitDepth == 16 {
            return samples.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        }
        var bytes: [UInt8] = []
        var current = 0
        var used = 0
        for sample in samples {
            current = current << bitDepth | sample
            used += bitDepth
            if used == 8 {
                bytes.append(UInt8(current))
                current = 0
                used = 0
            }
        }
        if used > 0 { bytes.append(UInt8(current << (8 - used))) }
        return bytes
    }
}

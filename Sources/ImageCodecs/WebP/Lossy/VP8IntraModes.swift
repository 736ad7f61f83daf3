/// The prediction modes, numbered as libwebp numbers them: the four 16×16 and chroma modes are
/// the first four of the ten 4×4 modes, so a 16×16 macroblock's mode doubles as the context of
/// its neighbours' 4×4 modes.
enum VP8IntraMode {
    static let dc: UInt8 = 0
    static let trueMotion: UInt8 = 1
    static let vertical: UInt8 = 2
    static let horizontal: UInt8 = 3
    static let downRight: UInt8 = 4
    static let verticalRight: UInt8 = 5
    static let downLeft: UInt8 = 6
    static let verticalLeft: UInt8 = 7
    static let horizontalDown: UInt8 = 8
    static let horizontalUp: UInt8 = 9
}

/// What the first partition says about one macroblock (RFC 6386 §11, §19.3).
struct VP8MacroblockModes {
    var segment = 0
    var skipsCoefficients = false
    var usesSubblocks = false
    var lumaMode: UInt8 = 0
    var chromaMode: UInt8 = 0
    /// The sixteen 4×4 modes in raster order, four bits each, when ``usesSubblocks``: a byte
    /// stored into a vector then reloaded whole stalled store forwarding.
    var packedSubblockModes: UInt64 = 0

    /// The 4×4 mode of block `index` (raster order).
    @inline(__always)
    func subblockMode(_ index: Int) -> UInt8 {
        UInt8(truncatingIfNeeded: (packedSubblockModes &>> UInt64(4 * index)) & 0xF)
    }

    /// Reads the modes of one macroblock; `above` holds the 4×4 modes along the bottom of the
    /// macroblock above (DC outside the frame) and `left` those along the right of the one to
    /// the left; both are updated for the next macroblocks. `table` is
    /// ``VP8Tables/subblockModeProbabilities``.
    static func read(
        _ reader: inout VP8BoolDecoder, segmentProbabilities: (UInt8, UInt8, UInt8)?, skipProbability: UInt8?,
        table: UnsafePointer<UInt8>, above: UnsafeMutablePointer<UInt8>, left: UnsafeMutablePointer<UInt8>
    ) -> VP8MacroblockModes {
        var modes = VP8MacroblockModes()
        if let probabilities = segmentProbabilities {
            modes.segment =
                !reader.bit(probabilities.0)
                ? (reader.bit(probabilities.1) ? 1 : 0) : (reader.bit(probabilities.2) ? 3 : 2)
        }
        if let probability = skipProbability { modes.skipsCoefficients = reader.bit(probability) }
        modes.usesSubblocks = !reader.bit(145)
        if !modes.usesSubblocks {
            let mode =
                reader.bit(156)
                ? (reader.bit(128) ? VP8IntraMode.trueMotion : VP8IntraMode.horizontal)
                : (reader.bit(163) ? VP8IntraMode.vertical : VP8IntraMode.dc)
            modes.lumaMode = mode
            for index in 0..<4 {
                above[index] = mode
                left[index] = mode
            }
        } else {
            var packed: UInt64 = 0
            for row in 0..<4 {
                var leftMode = left[row]
                for column in 0..<4 {
                    let probabilities = table + (Int(above[column]) * 10 + Int(leftMode)) * 9
                    leftMode = readSubblockMode(&reader, probabilities)
                    above[column] = leftMode
                    packed |= UInt64(leftMode) &<< UInt64(4 * (row * 4 + column))
                }
                left[row] = leftMode
            }
            modes.packedSubblockModes = packed
        }
        modes.chromaMode =
            !reader.bit(142)
            ? VP8IntraMode.dc
            : !reader.bit(114)
                ? VP8IntraMode.vertical : reader.bit(183) ? VP8IntraMode.trueMotion : VP8IntraMode.horizontal
        return modes
    }

    /// Walks the 4×4 mode tree of §11.2; node `n` uses probability `n`.
    @inline(__always)
    private static func readSubblockMode(
        _ reader: inout VP8BoolDecoder, _ probabilities: UnsafePointer<UInt8>
    ) -> UInt8 {
        if !reader.bit(probabilities[0]) { return VP8IntraMode.dc }
        if !reader.bit(probabilities[1]) { return VP8IntraMode.trueMotion }
        if !reader.bit(probabilities[2]) { return VP8IntraMode.vertical }
        if !reader.bit(probabilities[3]) {
            if !reader.bit(probabilities[4]) { return VP8IntraMode.horizontal }
            return reader.bit(probabilities[5]) ? VP8IntraMode.verticalRight : VP8IntraMode.downRight
        }
        if !reader.bit(probabilities[6]) { return VP8IntraMode.downLeft }
        if !reader.bit(probabilities[7]) { return VP8IntraMode.verticalLeft }
        return reader.bit(probabilities[8]) ? VP8IntraMode.horizontalUp : VP8IntraMode.horizontalDown
    }
}

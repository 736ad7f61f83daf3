/// Decoding past the output's end, for streams that hold more than the image needs.
///
/// Once the output is full, the rest of the stream is decoded into a window of twice the deflate
/// distance limit: the last 32 KiB written stay behind the write position, so every match still
/// finds its source, and the window slides back by half whenever it fills. Nothing decoded there
/// is kept. These paths are cold: the block decoder reaches them only at the output's end. The
/// work stays linear in the input: deflate expands at most 1032 times, as the image data does.
extension Inflater {
    /// The farthest a deflate match may reach back (RFC 1951, 3.2.5).
    static let surplusHistory = 32_768

    /// Whether the output is full and the stream's rest is being decoded into the window.
    var isDiscardingSurplus: Bool { surplusWindow != nil }

    /// Writes the one or two literals of `entry` (a literal/length table entry already consumed)
    /// where the output has no room for both.
    mutating func writeSurplus(literals entry: UInt32) throws(InflateError) {
        try writeSurplusByte(UInt8(truncatingIfNeeded: entry &>> 16))
        if entry & HuffmanTable.literalPair != 0 {
            try writeSurplusByte(UInt8(truncatingIfNeeded: entry &>> 8))
        }
    }

    /// Copies a match (its distance already checked) that does not fit in the output, byte by
    /// byte so that it can straddle the output's end and the window's slides.
    mutating func writeSurplus(matchLength length: Int, distance: Int) throws(InflateError) {
        for _ in 0..<length {
            try writeSurplusByte(output[-distance])
        }
    }

    private mutating func writeSurplusByte(_ byte: UInt8) throws(InflateError) {
        if output == outputEnd { try makeRoomForSurplus() }
        output.pointee = byte
        output += 1
    }

    /// Called when the output is full and the stream has more: rejects the stream, or moves the
    /// last ``surplusHistory`` bytes written to the front half of the window and continues in
    /// its back half.
    ///
    /// - Throws: ``InflateError/tooMuchData(expected:)`` with ``Surplus/reject``.
    mutating func makeRoomForSurplus() throws(InflateError) {
        guard surplus == .discard else { throw failure(.tooMuchData(expected: outputEnd - outputStart)) }
        let history = Self.surplusHistory
        let window: UnsafeMutablePointer<UInt8>
        if let surplusWindow {
            window = surplusWindow
        } else {
            window = .allocate(capacity: 2 * history + Self.outputSlack)
            window.initialize(repeating: 0, count: 2 * history + Self.outputSlack)
            surplusWindow = window
        }
        // The source (the output's or the window's last bytes) and the front half never overlap.
        let kept = min(history, output - outputStart)
        (window + history - kept).update(from: output - kept, count: kept)
        outputStart = window + history - kept
        output = window + history
        outputEnd = window + 2 * history
        // Not streaming (a streaming inflater never discards): no pause, wherever the output is.
        outputPause = outputEnd
    }
}

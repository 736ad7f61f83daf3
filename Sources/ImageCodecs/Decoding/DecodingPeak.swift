/// The arithmetic of the built-in decoders' peak memory: what one decode holds at once (its
/// output and every scratch buffer), computed from the file's headers before anything is
/// allocated, and checked against `maximumDecodingBytes`.
///
/// Sizes come from untrusted headers, so every sum and product saturates at `Int.max` instead of
/// trapping: a saturated peak is simply over any limit.
enum DecodingPeak {
    /// The default of ``PNGDecoder/maximumDecodingBytes`` and ``JPEGDecoder/maximumDecodingBytes``:
    /// 384 MiB.
    ///
    /// The decoders' default pixel limit (64 Mi pixels) allows a 256 MiB RGBA bitmap, so this is
    /// one and a half times the largest output that limit admits: every image the pixel limit
    /// accepts decodes as long as its scratch stays under half that output — every
    /// non-interlaced PNG and sequential JPEG up to the pixel limit, a progressive 4:2:0 photo up
    /// to 57 megapixels, an 8-bit Adam7 RGBA PNG up to 48 megapixels — while a few hundred KiB
    /// of hostile file cannot make one decode hold 640 MiB (a progressive 4:4:4 JPEG of 8192²)
    /// or 768 MiB (an interlaced 16-bit RGBA PNG of 8192²).
    static let defaultLimit = 384 << 20

    /// The scratch of one streaming inflater, rounded up: its 32 KiB window and 128 KiB of fresh
    /// output, 32 KiB of staged input, the 64 KiB window that discards a surplus, and the Huffman
    /// tables.
    static let streamingInflaterBytes = 320 << 10

    /// The scratch of a one-shot inflate besides its input and output: the Huffman tables and
    /// the surplus window, rounded up.
    static let inflaterBytes = 128 << 10

    /// `terms` added, saturating at `Int.max`.
    static func sum(_ terms: Int...) -> Int {
        terms.reduce(0) { total, term in
            let (result, overflow) = total.addingReportingOverflow(term)
            return overflow ? Int.max : result
        }
    }

    /// `factors` multiplied, saturating at `Int.max`; all are non-negative.
    static func product(_ factors: Int...) -> Int {
        factors.reduce(1) { total, factor in
            let (result, overflow) = total.multipliedReportingOverflow(by: factor)
            return overflow ? Int.max : result
        }
    }
}

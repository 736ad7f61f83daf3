/// A DEFLATE compressor (RFC 1951): LZ77 over a 32 KiB window with hash chains and lazy matching,
/// then each block as stored, fixed-Huffman or dynamic-Huffman, whichever is smallest.
///
/// The matcher follows zlib's level 6 (`deflate_slow` with good 8, lazy 16, nice 128, chain 128)
/// with the `Z_FILTERED` strategy, as libpng calls zlib by default, so the streams are like what
/// image editors write. Correctness matters more than speed here: it only prepares the files
/// tests and benchmarks read.
enum Deflate {
    /// Symbols per block: zlib closes a block every 16 K symbols, so codes follow the data.
    private static let blockSymbolLimit = 16_383

    /// Compresses `input` into a raw DEFLATE stream (no zlib header).
    static func compress(_ input: [UInt8]) -> [UInt8] {
        var writer = BitWriter(reservingCapacity: input.count / 2 + 64)
        var matcher = LZ77Matcher()
        var blockStart = 0
        var symbols: [LZ77Symbol] = []
        symbols.reserveCapacity(blockSymbolLimit)
        input.withUnsafeBufferPointer { data in
            matcher.findMatches(in: data) { symbol, position in
                symbols.append(symbol)
                if symbols.count >= blockSymbolLimit {
                    let blockEnd = position + symbol.coveredByteCount
                    BlockWriter.write(symbols, raw: data[blockStart..<blockEnd], isFinal: false, to: &writer)
                    symbols.removeAll(keepingCapacity: true)
                    blockStart = blockEnd
                }
            }
            BlockWriter.write(symbols, raw: data[blockStart...], isFinal: true, to: &writer)
        }
        writer.alignToByte()
        return writer.bytes
    }
}

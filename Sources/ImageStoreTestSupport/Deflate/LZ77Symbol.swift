/// One LZ77 decision: a literal byte (`distance == 0`) or a back-reference.
struct LZ77Symbol {
    /// The literal byte, or the match length (3...258).
    var length: Int
    /// 0 for a literal, else how far back the match starts (1...32768).
    var distance: Int

    static func literal(_ byte: UInt8) -> LZ77Symbol { LZ77Symbol(length: Int(byte), distance: 0) }

    /// Input bytes the symbol covers.
    var coveredByteCount: Int { distance == 0 ? 1 : length }
}

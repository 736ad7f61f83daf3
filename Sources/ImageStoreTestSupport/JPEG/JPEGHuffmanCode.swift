/// A Huffman table as a DHT segment defines it, and the code of each symbol derived from it.
///
/// `codeLengthCounts[i]` is how many symbols have codes of `i + 1` bits (T.81's BITS list) and
/// `symbols` lists them by increasing code length (HUFFVAL). Codes are assigned as T.81 Annex C
/// says: consecutive integers within one length, doubled when the length grows.
struct JPEGHuffmanCode {
    let codeLengthCounts: [UInt8]
    let symbols: [UInt8]
    /// `codes[symbol]` and `lengths[symbol]`: the code of every symbol (length 0 if it has none).
    private(set) var codes = [UInt16](repeating: 0, count: 256)
    private(set) var lengths = [UInt8](repeating: 0, count: 256)

    init(codeLengthCounts: [UInt8], symbols: [UInt8]) {
        precondition(codeLengthCounts.count == 16, "BITS has 16 entries")
        precondition(
            codeLengthCounts.reduce(0) { $0 + Int($1) } == symbols.count, "BITS must count every symbol")
        self.codeLengthCounts = codeLengthCounts
        self.symbols = symbols
        var code: UInt16 = 0
        var next = 0
        for length in 1...16 {
            for _ in 0..<codeLengthCounts[length - 1] {
                let symbol = Int(symbols[next])
                codes[symbol] = code
                lengths[symbol] = UInt8(length)
                code &+= 1
                next += 1
            }
            code <<= 1
        }
    }

    /// The table's DHT body: class and identifier, BITS, HUFFVAL.
    func segmentBody(tableClass: UInt8, identifier: UInt8) -> [UInt8] {
        [tableClass << 4 | identifier] + codeLengthCounts + symbols
    }
}

/// Two literals per lookup.
///
/// Image data compresses to short literal codes (filtered rows are mostly small differences, a
/// few bits each), and decoding one code needs the previous one's length: a chain of dependent
/// loads. Where the root table's bits hold a whole second literal code after the first, one
/// entry can answer both, halving that chain.
extension HuffmanTable {
    /// Turns root entries of a literal/length table into ``literalPair`` entries wherever the
    /// first code is a literal and the bits after it, within the root bits, hold another
    /// literal code completely.
    ///
    /// Goes from the last entry down: the second code's entry is found at `index >> firstLength`,
    /// an index not above `index`, so it is still a single-literal entry when read.
    ///
    /// - Parameters:
    ///   - table: A literal/length table just built by
    ///     ``build(lengths:symbolCount:symbols:rootBits:into:capacity:scratch:alphabet:)``.
    ///   - rootBits: Its root index bits.
    /// - Complexity: O(2^`rootBits`).
    static func pairLiterals(in table: UnsafeMutablePointer<UInt32>, rootBits: Int) {
        var index = (1 << rootBits) - 1
        while index >= 0 {
            // Computed for every entry and selected without branches: whether an entry pairs
            // follows no pattern a branch predictor could learn.
            let first = table[index]
            let firstLength = Int(first & 0x1F)
            let second = table[index &>> firstLength]
            let totalLength = firstLength &+ Int(second & 0x1F)
            let secondLiteral = (second &>> 16 & 0xFF) &<< 8
            let paired = first & 0xFFFF_0000 | literalPair | secondLiteral | UInt32(truncatingIfNeeded: totalLength)
            let pairs = first & second & literal != 0 && totalLength <= rootBits
            table[index] = pairs ? paired : first
            index &-= 1
        }
    }
}

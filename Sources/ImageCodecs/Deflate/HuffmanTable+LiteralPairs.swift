/// Two literals per lookup.
///
/// Image data compresses to short literal codes (filtered rows are mostly small differences, a
/// few bits each), and decoding one code needs the previous one's length: a chain of dependent
/// loads. Where the root table's bits hold a whole second literal code after the first, one
/// entry can answer both, halving that chain.
extension HuffmanTable {
    /// Stores the ``literalPair`` entry of every two literal codes of `totalLength` bits in all,
    /// a step of ``build(lengths:symbolCount:symbols:rootBits:into:capacity:scratch:alphabet:pairsLiterals:)``.
    ///
    /// A first code `r1` of `L1` bits followed by a second code `r2` (both bit-reversed, the
    /// order the stream delivers them in) is the index `r1 | r2 << L1`, and the pair recurs
    /// every 2^`totalLength` entries like a code of that length. So, called when the table
    /// holds its first 2^`totalLength` entries, each pair is stored once and the doubling
    /// repeats it. Each pair overwrites an entry of its first code, which is shorter.
    ///
    /// Photo data uses a few dozen short literal codes per block, so this is a few hundred
    /// stores, where pairing every root slot costs thousands of dependent loads per block.
    ///
    /// - Parameters:
    ///   - totalLength: The bits of both codes together, at most the root bits.
    ///   - table: The table being built, filled up to 2^`totalLength` entries.
    ///   - scratch: The build's scratch, with every code shorter than `totalLength` sorted, its
    ///     reversed code recorded and its length's literal end noted.
    static func placeLiteralPairs(totalLength: Int, in table: UnsafeMutablePointer<UInt32>, scratch: Scratch) {
        let counts = scratch.counts
        let ends = scratch.offsets
        let literalEnds = scratch.literalEnds
        let sorted = scratch.sortedSymbols
        let codes = scratch.reversedCodes
        for firstLength in 1..<totalLength {
            let secondLength = totalLength &- firstLength
            // A length's literals are the first of its symbols.
            let seconds = (ends[secondLength] &- counts[secondLength])..<literalEnds[secondLength]
            for first in (ends[firstLength] &- counts[firstLength])..<literalEnds[firstLength] {
                let firstCode = Int(codes[first])
                let base =
                    literal | literalPair | UInt32(sorted[first]) &<< 16 | UInt32(truncatingIfNeeded: totalLength)
                for second in seconds {
                    table[firstCode | Int(codes[second]) &<< firstLength] = base | UInt32(sorted[second]) &<< 8
                }
            }
        }
    }
}

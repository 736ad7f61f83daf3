/// An entry of an AC table's ``JPEGHuffmanTable/Pointers/coefficientPairs``: what the next
/// ``JPEGHuffmanTable/lookupBits`` bits of a sequential scan hold whole, up to two coefficients
/// (each a run/size code and its value bits) or an end of block.
///
/// Decoding a symbol needs the previous one's length, so Huffman decoding is a chain of dependent
/// table loads. In photos at the usual qualities most AC codes and their value bits take 3 to 6
/// bits: a 10-bit prefix often holds two, and one load answering both shortens the chain.
///
/// The bits of an entry:
///
/// | bits  | field                                                                              |
/// |-------|------------------------------------------------------------------------------------|
/// | 0–3   | the bits the whole entry consumes (bits 4–5 are zero, so `buffer &<< entry` works)  |
/// | 8–11  | the bits the first coefficient alone consumes (0: no coefficient fits)              |
/// | 12–15 | the first coefficient's run of zeros                                               |
/// | 16–20 | the positions from the first coefficient to the second (its run + 1), or 0         |
/// | 24–29 | the guard: the entry applies whole only while `index + guard < 64`                 |
/// | 30    | the block ends here, before any coefficient (an end-of-block code first)           |
/// | 31    | the block ends after the entry's coefficient (an end-of-block code second)         |
/// | 40–51 | the first coefficient's value, signed                                              |
/// | 52–63 | the second's value, signed (the first's again when there is no second)             |
///
/// An entry with one coefficient writes it twice, at the same position, so that the decoder
/// needs no branch between one and two. Nothing else is written: a block holds what earlier
/// scans of its component wrote (a damaged file can have several sequential scans of one
/// component), and libjpeg writes only nonzero coefficients, so an end of block writes nothing
/// and a ZRL code (15 zeros and a zero) is left to the one-symbol path. The guard keeps a
/// block's last coefficient from taking the next code with it: the second code counts only if
/// the first coefficient is not at position 63 (where the block ends without an end-of-block
/// code); an entry whose guard fails is used for its first coefficient alone.
enum JPEGCoefficientPair {
    /// The guard of an entry that holds no whole coefficient: never passes (the index is at
    /// least 1).
    static let noCoefficient: UInt64 = 63 << 24
    /// The bit set in entries that end the block before writing anything.
    static let endsBlockFirst: UInt64 = 1 << 30
    /// The bit set in entries that end the block after writing their coefficient.
    static let endsBlock: UInt64 = 1 << 31

    /// Fills `pairs` from a table's `lookup` (`length << 8 | symbol` per prefix, 0 for longer
    /// codes).
    ///
    /// - Complexity: O(2^``JPEGHuffmanTable/lookupBits``).
    static func fill(_ pairs: UnsafeMutablePointer<UInt64>, from lookup: UnsafePointer<UInt16>) {
        let bits = JPEGHuffmanTable.lookupBits
        let mask = (1 << bits) - 1
        // The coefficient each whole prefix starts with, decoded once. The second coefficient
        // of a prefix is the one its remaining bits start with, when it fits in them: the same
        // entry, read for the prefix shifted left (its new low bits are zeros, which an entry
        // that fits never reads). This halves the decoding, which is most of a small file's
        // table building.
        let firsts = (0...mask).map { coefficient(lookup[$0], prefix: $0, available: bits) }
        for prefix in 0...mask {
            guard let first = firsts[prefix] else {
                pairs[prefix] = noCoefficient
                continue
            }
            if first.endsBlock {
                pairs[prefix] = UInt64(first.length) | UInt64(first.length) << 8 | endsBlockFirst
                continue
            }
            var entry =
                UInt64(first.length) << 8 | UInt64(first.run) << 12 | packedValue(first.value) << 40
                | packedValue(first.value) << 52
            if let second = firsts[(prefix << first.length) & mask], second.length <= bits - first.length {
                entry |= UInt64(first.run + 1) << 24 | UInt64(first.length + second.length)
                if second.endsBlock {
                    entry |= endsBlock
                } else {
                    entry = entry & ~(0xFFF << 52) | UInt64(second.run + 1) << 16 | packedValue(second.value) << 52
                }
            } else {
                entry |= UInt64(first.length)
            }
            pairs[prefix] = entry
        }
    }

    /// A code and its value bits at the start of `prefix` (`bits` wide, left-aligned).
    private struct Coefficient {
        /// The bits of the code and its value.
        let length: Int
        let run: Int
        let value: Int
        let endsBlock: Bool
    }

    /// The coefficient whose code and value bits lie within the first `available` bits of
    /// `prefix`, or an end of block; `nil` for a longer code or ZRL.
    ///
    /// - Parameter entry: The lookup entry of `prefix`.
    private static func coefficient(_ entry: UInt16, prefix: Int, available: Int) -> Coefficient? {
        let codeLength = Int(entry >> 8)
        guard entry != 0, codeLength <= available else { return nil }
        let run = Int(entry & 0xFF) >> 4
        let size = Int(entry & 15)
        if size == 0 {
            // Every size-0 code but ZRL ends the block, as in libjpeg.
            guard run != 15 else { return nil }
            return Coefficient(length: codeLength, run: 0, value: 0, endsBlock: true)
        }
        guard codeLength + size <= available else { return nil }
        let bits = JPEGHuffmanTable.lookupBits
        let raw = (prefix >> (bits - codeLength - size)) & ((1 << size) - 1)
        let value = raw < (1 << (size - 1)) ? raw - (1 << size) + 1 : raw
        return Coefficient(length: codeLength + size, run: run, value: value, endsBlock: false)
    }

    /// `value` (at most 9 bits and a sign here) as a 12-bit two's complement field.
    private static func packedValue(_ value: Int) -> UInt64 {
        UInt64(truncatingIfNeeded: value) & 0xFFF
    }
}

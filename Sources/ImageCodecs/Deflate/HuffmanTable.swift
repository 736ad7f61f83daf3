/// Builds the lookup tables that decode deflate's canonical prefix codes (RFC 1951, 3.2.2).
///
/// A table is indexed by the next `rootBits` bits of the stream (least significant bit first, as
/// deflate packs codes bit-reversed) and answers with one 32-bit entry, so most symbols cost a
/// single load. Codes longer than `rootBits` go through a ``link`` entry to a subtable indexed by
/// the following bits. Entry layout:
///
/// | bits   | meaning                                                                         |
/// |--------|---------------------------------------------------------------------------------|
/// | 0–4    | bits to consume: the code length plus the extra bits that follow it (0 in links) |
/// | 6      | ``exceptional``: end of block (value 0) or an invalid code (value 1)             |
/// | 7      | ``link`` to a subtable                                                           |
/// | 8–11   | the code length alone                                                            |
/// | 12–15  | the number of extra bits; for a link, the subtable's index bits                  |
/// | 8–15   | in a ``literalPair``: the second literal byte                                    |
/// | 16–30  | literal byte, base length, base distance, code-length symbol, or subtable start  |
/// | 30     | ``literalPair`` (with ``literal``): two literals, see ``placeLiteralPairs(totalLength:in:scratch:)`` |
/// | 31     | ``literal``                                                                      |
///
/// Bits 5 and up never affect a shift by the entry (shifts of a 64-bit value use the low 6 bits),
/// so the decoder drops a code and its extra bits with one `bits &>>= entry`.
enum HuffmanTable {
    /// The entry is a literal byte (its sign bit, the cheapest test).
    static let literal: UInt32 = 0x8000_0000
    /// With ``literal``: the entry holds two literals, the first in bits 16–23, the second in
    /// bits 8–15, and consumes both codes.
    static let literalPair: UInt32 = 0x4000_0000
    /// The entry links to a subtable for codes longer than the root bits.
    static let link: UInt32 = 0x80
    /// The entry ends the block (value 0) or marks bits that are not a valid code (value 1).
    static let exceptional: UInt32 = 0x40
    /// The entry of bits that are not a code, or of a reserved symbol.
    static let invalid: UInt32 = exceptional | 1 << 16
    /// The entry of the end-of-block symbol, without its code length.
    static let endOfBlock: UInt32 = exceptional

    /// Index bits of the literal/length root table; longer codes (rare) take a second lookup.
    static let literalLengthRootBits = 11
    /// Index bits of the distance root table.
    static let distanceRootBits = 8
    /// Index bits of the code-length table: its codes are at most 7 bits, so one level suffices.
    static let codeLengthRootBits = 7

    /// Entries a literal/length table may need: the root plus, at most, a full-depth subtable
    /// for every one of the 288 symbols. Real codes use a small fraction of it.
    static let literalLengthCapacity = (1 << literalLengthRootBits) + 288 << (15 - literalLengthRootBits)
    /// Entries a distance table may need, bounded like ``literalLengthCapacity``.
    static let distanceCapacity = (1 << distanceRootBits) + 32 << (15 - distanceRootBits)
    /// Entries the code-length table needs.
    static let codeLengthCapacity = 1 << codeLengthRootBits

    /// The entry of every literal/length symbol, without its code length: literals 0–255,
    /// end of block 256, lengths 257–285 (RFC 1951, 3.2.5), reserved 286–287.
    static let literalLengthSymbols: [UInt32] = {
        var entries = [UInt32](repeating: invalid, count: 288)
        for byte in 0..<256 {
            entries[byte] = literal | UInt32(byte) << 16
        }
        entries[256] = endOfBlock
        var base = 3
        for symbol in 257...285 {
            let extraBits = symbol < 265 || symbol == 285 ? 0 : (symbol - 261) / 4
            // Symbol 285 stands for 258 exactly, one less than the progression would give.
            let length = symbol == 285 ? 258 : base
            entries[symbol] = UInt32(extraBits) << 12 | UInt32(length) << 16
            base += 1 << extraBits
        }
        return entries
    }()

    /// The entry of every distance symbol, without its code length: 0–29 (RFC 1951, 3.2.5),
    /// reserved 30–31.
    static let distanceSymbols: [UInt32] = {
        var entries = [UInt32](repeating: invalid, count: 32)
        var base = 1
        for symbol in 0..<30 {
            let extraBits = symbol < 4 ? 0 : symbol / 2 - 1
            entries[symbol] = UInt32(extraBits) << 12 | UInt32(base) << 16
            base += 1 << extraBits
        }
        return entries
    }()

    /// The entry of every code-length symbol 0–18: the symbol itself.
    static let codeLengthSymbols: [UInt32] = (0..<19).map { UInt32($0) << 16 }

    /// Fills `table` with the decoding entries of the prefix code that `lengths` describe.
    ///
    /// Rejects over-subscribed codes and, like zlib, incomplete codes except a literal/length or
    /// distance code with a single 1-bit code (which deflate encoders emit for one-symbol data).
    /// A code with no symbols at all is accepted and yields a table of ``invalid`` entries.
    ///
    /// - Parameters:
    ///   - lengths: The code length of every symbol, 0 for unused symbols; at most 15.
    ///   - symbolCount: The number of symbols in `lengths`, at most `symbols.count`.
    ///   - symbols: The entry of each symbol without its code length.
    ///   - rootBits: The index bits of the root table.
    ///   - table: The table to fill.
    ///   - capacity: The entries `table` can hold.
    ///   - scratch: Room for the sort, reused between calls.
    ///   - alphabet: Which code this is, for the error.
    ///   - pairsLiterals: Whether root entries answer two literals where their bits hold two
    ///     literal codes (``literalPair``); for literal/length tables.
    /// - Throws: ``InflateError/invalidCodeLengths(_:)``.
    static func build(
        lengths: UnsafePointer<UInt8>,
        symbolCount: Int,
        symbols: UnsafePointer<UInt32>,
        rootBits: Int,
        into table: UnsafeMutablePointer<UInt32>,
        capacity: Int,
        scratch: Scratch,
        alphabet: InflateError.Alphabet,
        pairsLiterals: Bool = false
    ) throws(InflateError) {
        let counts = scratch.counts
        countLengths(lengths, symbolCount: symbolCount, into: counts)
        var longest = 0
        var unusedCodes = 1
        for length in 1...15 {
            unusedCodes = unusedCodes << 1 - counts[length]
            if unusedCodes < 0 { throw .invalidCodeLengths(alphabet) }
            if counts[length] > 0 { longest = length }
        }
        let rootSize = 1 << rootBits
        if longest == 0 {
            table.update(repeating: invalid, count: rootSize)
            return
        }
        if unusedCodes > 0 {
            guard alphabet != .codeLength, longest == 1 else { throw .invalidCodeLengths(alphabet) }
            table.update(repeating: invalid, count: rootSize)
        }

        // Sort the used symbols by code length (a stable counting sort keeps symbol order within
        // a length), the order in which canonical codes are assigned.
        let offsets = scratch.offsets
        offsets[1] = 0
        for length in 1...15 {
            offsets[length + 1] = offsets[length] + counts[length]
        }
        let sorted = scratch.sortedSymbols
        for symbol in 0..<symbolCount where lengths[symbol] != 0 {
            let length = Int(lengths[symbol])
            sorted[offsets[length]] = UInt16(truncatingIfNeeded: symbol)
            offsets[length] += 1
        }
        let usedCount = offsets[16]

        let rootMask = rootSize - 1
        // The current canonical code, kept bit-reversed (the order the stream delivers it in).
        // Moving to a longer length appends zeros to the code, which leaves the reversed value
        // unchanged; the next code of the same length is a reversed increment.
        var reversed = 0
        var index = 0
        // Root codes, shortest first, into a table that grows by doubling: once the codes of
        // length L sit in the first 2^L entries, copying those entries onto the next 2^L repeats
        // every one of them wherever its bits recur, so each code is stored once and the rest
        // of the table is filled by block copies instead of one store per slot. Entries no
        // shorter code covers are overwritten by a longer code or a link before the end. Pairs
        // of codes recur the same way, so those of L bits in all are stored at the same step.
        let codes = scratch.reversedCodes
        for length in 1...rootBits {
            if length > 1 {
                let half = 1 &<< (length &- 1)
                (table + half).update(from: table, count: half)
            }
            // Symbols of one length are sorted, so its literals (below 256) come first.
            var literalEnd = index
            for _ in 0..<counts[length] {
                let symbol = Int(sorted[index])
                table[reversed] = entry(of: symbol, length: length, symbols: symbols)
                codes[index] = UInt16(truncatingIfNeeded: reversed)
                reversed = incrementReversed(reversed, length: length)
                index &+= 1
                if symbol < 256 { literalEnd = index }
            }
            scratch.literalEnds[length] = literalEnd
            if pairsLiterals {
                placeLiteralPairs(totalLength: length, in: table, scratch: scratch)
            }
        }

        var subtableStart = rootSize
        var subtableBits = 0
        var currentPrefix = -1
        while index < usedCount {
            let symbol = Int(sorted[index])
            let length = Int(lengths[symbol])
            let prefix = reversed & rootMask
            if prefix != currentPrefix {
                if currentPrefix >= 0 { subtableStart += 1 << subtableBits }
                currentPrefix = prefix
                subtableBits = subtableIndexBits(
                    firstLength: length, rootBits: rootBits, longest: longest, remaining: counts
                )
                guard subtableStart + 1 << subtableBits <= capacity else {
                    throw .invalidCodeLengths(alphabet)
                }
                table.advanced(by: subtableStart).update(repeating: invalid, count: 1 << subtableBits)
                table[prefix] = link | UInt32(subtableBits) << 12 | UInt32(subtableStart) << 16
            }
            guard length - rootBits <= subtableBits else { throw .invalidCodeLengths(alphabet) }
            let codeEntry = entry(of: symbol, length: length, symbols: symbols)
            var slot = reversed >> rootBits
            while slot < 1 << subtableBits {
                table[subtableStart + slot] = codeEntry
                slot += 1 << (length - rootBits)
            }
            counts[length] -= 1
            reversed = incrementReversed(reversed, length: length)
            index += 1
        }
    }

    /// Counts the codes of each length 1–15 into `counts` (16 entries; `counts[0]` is 0).
    ///
    /// Four histograms, one for every fourth symbol, summed at the end: runs of equal lengths are
    /// the rule, and one histogram would wait for each increment to store before the next load.
    private static func countLengths(
        _ lengths: UnsafePointer<UInt8>, symbolCount: Int, into counts: UnsafeMutablePointer<Int>
    ) {
        withUnsafeTemporaryAllocation(of: Int.self, capacity: 64) { histograms in
            let partial = histograms.baseAddress.unsafelyUnwrapped
            partial.initialize(repeating: 0, count: 64)
            var symbol = 0
            while symbol &+ 4 <= symbolCount {
                partial[Int(lengths[symbol])] &+= 1
                partial[16 &+ Int(lengths[symbol &+ 1])] &+= 1
                partial[32 &+ Int(lengths[symbol &+ 2])] &+= 1
                partial[48 &+ Int(lengths[symbol &+ 3])] &+= 1
                symbol &+= 4
            }
            while symbol < symbolCount {
                partial[Int(lengths[symbol])] &+= 1
                symbol &+= 1
            }
            counts[0] = 0
            for length in 1..<16 {
                counts[length] =
                    partial[length] &+ partial[16 &+ length] &+ partial[32 &+ length] &+ partial[48 &+ length]
            }
        }
    }

    /// The table entry of `symbol` with a code of `length` bits.
    @inline(__always)
    private static func entry(of symbol: Int, length: Int, symbols: UnsafePointer<UInt32>) -> UInt32 {
        let symbolEntry = symbols[symbol]
        let extraBits = Int(symbolEntry >> 12 & 0xF)
        return symbolEntry | UInt32(length) << 8 | UInt32(length + extraBits)
    }

    /// Working memory for ``build(lengths:symbolCount:symbols:rootBits:into:capacity:scratch:alphabet:pairsLiterals:)``,
    /// allocated once per stream rather than once per block.
    struct Scratch {
        /// 16 counters: codes per length; those of root lengths are kept during a build.
        let counts: UnsafeMutablePointer<Int>
        /// 17 running offsets into ``sortedSymbols``, one per length; once sorted, the end of
        /// each length's symbols.
        let offsets: UnsafeMutablePointer<Int>
        /// Room for 320 symbols, the most a deflate block defines.
        let sortedSymbols: UnsafeMutablePointer<UInt16>
        /// Room for 320 codes: the bit-reversed code of each root code, in the order of
        /// ``sortedSymbols``, for pairing literals.
        let reversedCodes: UnsafeMutablePointer<UInt16>
        /// 16 ends, one per root length: where that length's literal symbols end in
        /// ``sortedSymbols``, for pairing literals.
        let literalEnds: UnsafeMutablePointer<Int>
    }

    /// The index bits of the subtable that starts with a code of `firstLength` bits: the fewest
    /// bits whose slots the remaining codes, shortest first, fill completely.
    private static func subtableIndexBits(
        firstLength: Int, rootBits: Int, longest: Int, remaining counts: UnsafeMutablePointer<Int>
    ) -> Int {
        var bits = firstLength - rootBits
        var unfilled = 1 << bits
        while bits + rootBits < longest {
            unfilled -= counts[bits + rootBits]
            if unfilled <= 0 { break }
            bits += 1
            unfilled <<= 1
        }
        return bits
    }

    /// Adds 1 to a `length`-bit code held bit-reversed: clears the trailing run of ones counted
    /// from the top bit down and sets the bit below it.
    private static func incrementReversed(_ reversed: Int, length: Int) -> Int {
        var bit = 1 << (length - 1)
        while reversed & bit != 0 {
            bit >>= 1
        }
        return bit == 0 ? 0 : reversed & (bit - 1) | bit
    }
}

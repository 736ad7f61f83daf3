extension JPEGBitReader {
    /// Decodes one sequential block (T.81 F.2.2.1 and F.2.2.2): writes its nonzero AC
    /// coefficients into `block`, at `order[index]`, and returns its DC difference. The other
    /// coefficients keep what they hold, as in libjpeg: zero, or what an earlier scan of the
    /// component wrote (damaged files can have several).
    ///
    /// The fast path of sequential scans: the bit buffer, its count and the read position live in
    /// local variables for the whole block (through `self` every consumed bit was a store), and
    /// eight bytes without an `FF` among them are loaded at once. Whatever else a refill meets
    /// (an `FF`, a marker, the end of the data) and codes longer than the lookup resolves go
    /// through ``refill()`` and ``decodeLong(_:)``.
    ///
    /// The AC loop refills on every step, so that whether it refills is no branch to predict
    /// (refills come every four to six steps, irregularly), and reads a step's table entry
    /// before the refill, from the ten bits already there, so that the refill is not on the chain
    /// from one entry to the next. The DC value is extracted without a branch on its size.
    ///
    /// - Parameter order: The zigzag-to-natural table, with entries up to index 79.
    /// - Returns: The DC difference, or `nil` for a bit pattern that is no code (never when
    ///   ``substitutesInvalidCodes`` is set).
    @inline(__always)
    mutating func decodeSequentialBlock(
        into block: UnsafeMutablePointer<Int16>, dcTable: JPEGHuffmanTable.Pointers,
        acTable: JPEGHuffmanTable.Pointers, order: UnsafePointer<Int>
    ) -> Int? {
        var (buffer, bitCount, position) = (self.buffer, self.bitCount, self.position)
        // Masking shifts and wrapping arithmetic: a code takes at most 17 bits, value sizes are
        // 0...15 (DC tables are checked, AC sizes are 4 bits), and the index stays below 80, so
        // no shift reaches 64 and nothing overflows; the checked forms put a compare and a
        // conditional move on the bit buffer's dependency chain.
        /// The next `size` bits (0...15) sign-extended as T.81 F.2.2.1 EXTEND does; 0 for size 0.
        @inline(__always) func extended(_ size: Int) -> Int {
            let bits = Self.take(size, &buffer, &bitCount)
            // Below half the range: negative, `bits - (2^size - 1)`. For size 0 the wrapped
            // difference is Int.min and the correction 0.
            let negative = (bits &- (1 &<< (size &- 1))) &>> 63
            return bits &+ (negative & (1 &- (1 &<< size)))
        }
        // The DC difference.
        if bitCount < 16 { refill(&buffer, &bitCount, &position) }
        let dcSize = decodeSymbol(
            entry: dcTable.lookup[Self.lookupPrefix(buffer)], dcTable, &buffer, &bitCount, &position)
        guard dcSize >= 0 else { return nil }
        // Here and on each AC step the buffer holds at least the 16 bits the DC value, or the next
        // table entry's prefix, needs.
        refill(&buffer, &bitCount, &position)
        let difference = extended(dcSize)
        // The AC coefficients.
        var index = 1
        while index < 64 {
            // Most steps: one or two coefficients, or the end of the block, from one lookup.
            let prefix = Self.lookupPrefix(buffer)
            let entry = acTable.coefficientPairs[prefix]
            refill(&buffer, &bitCount, &position)
            if index &+ Int(truncatingIfNeeded: entry &>> 24 & 0x3F) < 64 {
                buffer = buffer &<< entry
                bitCount &-= Int(truncatingIfNeeded: entry & 0xF)
                if entry & JPEGCoefficientPair.endsBlockFirst != 0 { break }
                let values = Int64(bitPattern: entry)
                index &+= Int(truncatingIfNeeded: entry &>> 12 & 0xF)
                block[order[index]] = Int16(truncatingIfNeeded: (values &<< 12) &>> 52)
                index &+= Int(truncatingIfNeeded: entry &>> 16 & 0x1F)
                block[order[index]] = Int16(truncatingIfNeeded: values &>> 52)
                index &+= 1
                if entry & JPEGCoefficientPair.endsBlock != 0 { break }
                continue
            }
            let firstLength = Int(truncatingIfNeeded: entry &>> 8 & 0xF)
            if firstLength != 0 {
                // The block's last coefficient, at position 63: the code after it is not ours.
                Self.consume(firstLength, &buffer, &bitCount)
                index &+= Int(truncatingIfNeeded: entry &>> 12 & 0xF)
                block[order[index]] = Int16(truncatingIfNeeded: (Int64(bitPattern: entry) &<< 12) &>> 52)
                index &+= 1
                continue
            }
            // A code longer than the prefix, or with its value bits: at most 16 + 15 bits of the
            // 56 the refill left (an invalid code substituted takes 17 and ends the block).
            let symbol = decodeSymbol(entry: acTable.lookup[prefix], acTable, &buffer, &bitCount, &position)
            guard symbol >= 0 else { return nil }
            let run = symbol >> 4
            let size = symbol & 15
            if size != 0 {
                index &+= run
                block[order[index]] = Int16(truncatingIfNeeded: extended(size))
            } else {
                if run != 15 { break }
                index &+= 15
            }
            index &+= 1
        }
        store(buffer, bitCount, position)
        return difference
    }
}

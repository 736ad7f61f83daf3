extension JPEGBitReader {
    /// Decodes one block of an AC first scan (T.81 G.1.2.2) whose end-of-band run is over: writes
    /// the coefficients of zigzag positions `start...end` it codes, shifted left by `shift` (the
    /// point transform `Al`), into `block` at `order[index]`, and returns the end-of-band run that
    /// follows: the number of the next blocks whose band is all zero.
    ///
    /// The fast path of AC first scans, in the style of ``decodeSequentialBlock(into:dcTable:acTable:order:)``:
    /// the bit buffer, its count and the read position live in local variables for the whole
    /// block, a refill on every step loads eight bytes at once when none is `FF`, and a step's
    /// table entry is read before its refill. Whatever else a refill meets and codes longer than
    /// the lookup resolves go through ``refill()`` and ``decodeLong(_:)``.
    ///
    /// - Parameters:
    ///   - start: The band's first zigzag position, 1...63.
    ///   - end: The band's last zigzag position, `start...63`.
    ///   - shift: The point transform, 0...13.
    ///   - order: The zigzag-to-natural table, with entries up to index 79.
    /// - Returns: The end-of-band run after this block, or `nil` for a bit pattern that is no
    ///   code (never when ``substitutesInvalidCodes`` is set).
    @inline(__always)
    mutating func decodeACFirstBlock(
        into block: UnsafeMutablePointer<Int16>, table: JPEGHuffmanTable.Pointers, start: Int, end: Int, shift: Int,
        order: UnsafePointer<Int>
    ) -> Int? {
        var (buffer, bitCount, position) = (self.buffer, self.bitCount, self.position)
        // Masking shifts and wrapping arithmetic: a code takes at most 17 bits, value sizes and
        // run lengths are 0...15 (4-bit fields), `shift` is at most 13, and the index stays below
        // 80 (`end` is at most 63, a run at most 15), so no shift reaches 64 and nothing
        // overflows.
        var endOfBandRun = 0
        // Each step consumes at most 16 + 15 bits (a code and its value, or an end-of-band code
        // and its run bits) of the 56 a refill leaves, so the next step's prefix is there.
        refill(&buffer, &bitCount, &position)
        var index = start
        while index <= end {
            let entry = table.lookup[Self.lookupPrefix(buffer)]
            refill(&buffer, &bitCount, &position)
            let symbol = decodeSymbol(entry: entry, table, &buffer, &bitCount, &position)
            guard symbol >= 0 else { return nil }
            let run = symbol &>> 4
            let size = symbol & 15
            if size != 0 {
                index &+= run
                // T.81 F.2.2.1 EXTEND: below half the range is negative, `bits - (2^size - 1)`.
                let bits = Self.take(size, &buffer, &bitCount)
                let value = bits < 1 &<< (size &- 1) ? bits &- (1 &<< size) &+ 1 : bits
                block[order[index]] = Int16(truncatingIfNeeded: value &<< shift)
            } else if run == 15 {
                index &+= 15
            } else {
                endOfBandRun = (1 &<< run) &+ Self.take(run, &buffer, &bitCount) &- 1
                break
            }
            index &+= 1
        }
        store(buffer, bitCount, position)
        return endOfBandRun
    }

    /// Decodes one block of an AC refinement scan (T.81 G.1.2.3): adds the correction bits of the
    /// nonzero coefficients of zigzag positions `start...end` and the new coefficients of
    /// magnitude `1 << shift`, and returns the end-of-band run that follows.
    ///
    /// The fast path of AC refinement scans: the state lives in local variables as in
    /// ``decodeACFirstBlock(into:table:start:end:shift:order:)``. A refill before each code
    /// leaves at least 56 bits, enough for the code (at most 17 bits) and its sign bit; the
    /// correction bits, one per nonzero coefficient passed (up to 63 per code), refill when the
    /// buffer is empty.
    ///
    /// - Parameters:
    ///   - endOfBandRun: The end-of-band run before this block: when positive, the block holds
    ///     correction bits only.
    ///   - start: The band's first zigzag position, 1...63.
    ///   - end: The band's last zigzag position, `start...63`.
    ///   - shift: The point transform, 0...13.
    ///   - order: The zigzag-to-natural table, with entries up to index 79.
    ///   - zigzagIndices: ``jpegZigzagIndexTable``.
    /// - Returns: The end-of-band run after this block, or `nil` for a bit pattern that is no
    ///   code (never when ``substitutesInvalidCodes`` is set).
    @inline(__always)
    mutating func decodeACRefinementBlock(
        into block: UnsafeMutablePointer<Int16>, table: JPEGHuffmanTable.Pointers, endOfBandRun: Int, start: Int,
        end: Int, shift: Int, order: UnsafePointer<Int>, zigzagIndices: UnsafePointer<UInt8>
    ) -> Int? {
        var (buffer, bitCount, position) = (self.buffer, self.bitCount, self.position)
        // Masking shifts and wrapping arithmetic as in `decodeACFirstBlock`: codes take at most 17
        // bits, runs are 0...15, `shift` is at most 13 and the index stays at most 64.
        let plusOne = Int16(truncatingIfNeeded: 1 &<< shift)
        let minusOne = Int16(truncatingIfNeeded: -1 &<< shift)
        var index = start
        // Zigzag positions 0...end, as a mask: `2 << 63` wraps to 0, and 0 - 1 keeps them all.
        let band = 2 &<< UInt64(truncatingIfNeeded: end) &- 1
        // The band's nonzero coefficients, found once and kept up to date as new ones are placed
        // (a correction never makes a coefficient zero), so that passing a run of zeros and
        // finding the coefficients to correct are no branch per position.
        var nonzero = Self.nonzeroZigzagPositions(block, zigzagIndices: zigzagIndices) & band
        var endOfBandRun = endOfBandRun
        if endOfBandRun == 0 {
            while index <= end {
                refill(&buffer, &bitCount, &position)
                let symbol = decodeSymbol(
                    entry: table.lookup[Self.lookupPrefix(buffer)], table, &buffer, &bitCount, &position)
                guard symbol >= 0 else { return nil }
                let run = symbol &>> 4
                var value: Int16 = 0
                if symbol & 15 != 0 {
                    // The sign of a new coefficient, within the bits the refill left.
                    value = buffer &>> 63 != 0 ? plusOne : minusOne
                    Self.consume(1, &buffer, &bitCount)
                } else if run != 15 {
                    // An end-of-band code and its run bits: at most 16 + 14 bits.
                    endOfBandRun = (1 &<< run) &+ Self.take(run, &buffer, &bitCount)
                    break
                }
                // Pass `run` zero coefficients, correcting the nonzero ones on the way, and stop at
                // the next zero one, or after `end` if there are not that many. `index` is at most
                // `end` (63) here.
                let ahead = ~UInt64(0) &<< UInt64(truncatingIfNeeded: index)
                var zeros = ~nonzero & band & ahead
                // Drop the lowest `run` zeros: the first two without a branch (most runs are that
                // short, and where a loop ends would be a guess), the rest in a loop.
                zeros = run > 0 ? zeros & (zeros &- 1) : zeros
                zeros = run > 1 ? zeros & (zeros &- 1) : zeros
                var more = run &- 2
                while more > 0 {
                    zeros &= zeros &- 1
                    more &-= 1
                }
                // The positions below the lowest zero left; all of them if none is.
                correct(
                    nonzero & ahead & (zeros &- 1 & ~zeros), in: block, order: order, plusOne: plusOne,
                    minusOne: minusOne, &buffer, &bitCount, &position)
                index = zeros == 0 ? end &+ 1 : zeros.trailingZeroBitCount
                if value != 0 {
                    // At most position 64, whose entry is 63 (and after which the block ends).
                    block[order[index]] = value
                    nonzero |= 1 &<< UInt64(truncatingIfNeeded: min(index, 63)) & band
                }
                index &+= 1
            }
        }
        if endOfBandRun > 0 {
            // Correction bits only, to the band's end. `index` is at most `end` (63) here.
            correct(
                nonzero & ~UInt64(0) &<< UInt64(truncatingIfNeeded: index), in: block, order: order,
                plusOne: plusOne, minusOne: minusOne, &buffer, &bitCount, &position)
            endOfBandRun &-= 1
        }
        store(buffer, bitCount, position)
        return endOfBandRun
    }

    /// Reads the correction bits of the nonzero coefficients at the zigzag positions of
    /// `positions`, in order, from a bit buffer held in local variables, refilling it when it is
    /// empty: a set bit adds `plusOne` (`1 << shift`) away from zero, unless that bit is set
    /// already.
    ///
    /// A method taking the state `inout` rather than a closure capturing it, so that the state
    /// stays in plain local variables even where this is not inlined.
    @inline(__always)
    private mutating func correct(
        _ positions: UInt64, in block: UnsafeMutablePointer<Int16>, order: UnsafePointer<Int>, plusOne: Int16,
        minusOne: Int16, _ buffer: inout UInt64, _ bitCount: inout Int, _ position: inout Int
    ) {
        var pending = positions
        while pending != 0 {
            let natural = order[pending.trailingZeroBitCount]
            let coefficient = block[natural]
            if bitCount == 0 { refill(&buffer, &bitCount, &position) }
            let bit = buffer &>> 63
            Self.consume(1, &buffer, &bitCount)
            if bit != 0 && coefficient & plusOne == 0 {
                block[natural] = coefficient >= 0 ? coefficient &+ plusOne : coefficient &+ minusOne
            }
            pending &= pending &- 1
        }
    }

    /// The zigzag positions of the nonzero coefficients of `block` (64, in natural order), as a
    /// mask: bit `k` for zigzag position `k`.
    ///
    /// Four coefficients at a time in a 64-bit word: a lane's top bit is set if the lane is
    /// nonzero, and the sixteen words' top bits are gathered into one lane mask, in an order
    /// `zigzagIndices` knows. Then one lookup per nonzero coefficient.
    ///
    /// - Parameter zigzagIndices: ``jpegZigzagIndexTable``: the zigzag position of each bit of the
    ///   lane mask.
    @inline(__always)
    static func nonzeroZigzagPositions(_ block: UnsafePointer<Int16>, zigzagIndices: UnsafePointer<UInt8>) -> UInt64 {
        let raw = UnsafeRawPointer(block)
        let low: UInt64 = 0x7FFF_7FFF_7FFF_7FFF
        var laneMask: UInt64 = 0
        for word in 0..<16 {
            // Lane i (bits 16i...16i+15) is coefficient 4 * word + i.
            let lanes = UInt64(littleEndian: raw.loadUnaligned(fromByteOffset: word &* 8, as: UInt64.self))
            // Bit 15 of a lane: set if the lane's low 15 bits carry into it when 7FFF is added
            // (no carry leaves the lane: 7FFF + 7FFF < 10000), or if it was set.
            let nonzero = ((lanes & low) &+ low | lanes) & ~low
            // Lane i's bit goes to bit 16i + word (a shift by 0...15).
            laneMask |= nonzero &>> UInt64(truncatingIfNeeded: 15 &- word)
        }
        var zigzag: UInt64 = 0
        while laneMask != 0 {
            zigzag |= 1 &<< UInt64(truncatingIfNeeded: zigzagIndices[laneMask.trailingZeroBitCount])
            laneMask &= laneMask &- 1
        }
        return zigzag
    }
}

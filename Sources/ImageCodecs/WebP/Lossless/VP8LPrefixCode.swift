/// Canonical prefix (Huffman) codes of the VP8L bitstream as two-level lookup tables.
///
/// A table is a run of `UInt32` entries inside a shared array: 256 root entries indexed by the
/// next 8 bits (the stream is read least-significant bit first, so codes are stored
/// bit-reversed), then the second-level tables of codes longer than 8 bits. An entry holds the
/// symbol in its low 16 bits and the bits it consumes above them; a root entry with more than 8
/// bits links to a second-level table (its low 16 bits are that table's offset from the root, the
/// bits above 8 its index width).
enum VP8LPrefixCode {
    /// The bits the root table resolves.
    static let rootBits = 8
    /// The longest code length the format allows.
    static let maximumLength = 15

    /// Appends the table of the code with `lengths[0..<count]` to `table`.
    ///
    /// A code of one symbol consumes no bits, as in libwebp; any other must fill the code space
    /// exactly.
    ///
    /// - Throws: ``WebPError/prefixCodeOversubscribed`` or ``WebPError/prefixCodeIncomplete``
    ///   (no symbol, or a code space left partly unused).
    static func build(lengths: UnsafePointer<UInt8>, count: Int, into table: inout [UInt32]) throws(WebPError) {
        var lengthCounts = [Int](repeating: 0, count: maximumLength + 1)
        var symbolCount = 0
        var onlySymbol = 0
        for symbol in 0..<count where lengths[symbol] != 0 {
            lengthCounts[Int(lengths[symbol])] += 1
            symbolCount += 1
            onlySymbol = symbol
        }
        guard symbolCount > 0 else { throw .prefixCodeIncomplete }
        let root = table.count
        if symbolCount == 1 {
            table.append(contentsOf: repeatElement(UInt32(onlySymbol), count: 1 << rootBits))
            return
        }
        var open = 1
        for length in 1...maximumLength {
            open = open * 2 - lengthCounts[length]
            guard open >= 0 else { throw .prefixCodeOversubscribed }
        }
        guard open == 0 else { throw .prefixCodeIncomplete }

        // The first code of each length, canonical order.
        var nextCode = [Int](repeating: 0, count: maximumLength + 2)
        var code = 0
        for length in 1...maximumLength {
            code = (code + lengthCounts[length - 1]) << 1
            nextCode[length] = code
        }
        if lengthCounts[(rootBits + 1)...].allSatisfy({ $0 == 0 }) {
            // Every code fits the root table: one pass, no second level.
            table.append(contentsOf: repeatElement(0, count: 1 << rootBits))
            for symbol in 0..<count where lengths[symbol] != 0 {
                let length = Int(lengths[symbol])
                let reversed = reverse(nextCode[length], length: length)
                nextCode[length] += 1
                let entry = UInt32(symbol) | UInt32(length) << 16
                for index in stride(from: reversed, to: 1 << rootBits, by: 1 << length) {
                    table[root + index] = entry
                }
            }
            return
        }
        var codes = [Int](repeating: 0, count: count)
        var longestUnder = [Int](repeating: 0, count: 1 << rootBits)
        for symbol in 0..<count where lengths[symbol] != 0 {
            let length = Int(lengths[symbol])
            let reversed = reverse(nextCode[length], length: length)
            nextCode[length] += 1
            codes[symbol] = reversed
            if length > rootBits {
                let prefix = reversed & 0xFF
                longestUnder[prefix] = max(longestUnder[prefix], length)
            }
        }
        table.append(contentsOf: repeatElement(0, count: 1 << rootBits))
        // Second-level tables, one per root prefix shared by long codes, sized by its longest.
        var subtableOffset = [Int](repeating: 0, count: 1 << rootBits)
        for prefix in 0..<(1 << rootBits) where longestUnder[prefix] > 0 {
            let indexBits = longestUnder[prefix] - rootBits
            subtableOffset[prefix] = table.count - root
            table[root + prefix] = UInt32(subtableOffset[prefix]) | UInt32(rootBits + indexBits) << 16
            table.append(contentsOf: repeatElement(0, count: 1 << indexBits))
        }
        for symbol in 0..<count where lengths[symbol] != 0 {
            let length = Int(lengths[symbol])
            let reversed = codes[symbol]
            if length <= rootBits {
                let entry = UInt32(symbol) | UInt32(length) << 16
                for index in stride(from: reversed, to: 1 << rootBits, by: 1 << length) {
                    table[root + index] = entry
                }
            } else {
                let prefix = reversed & 0xFF
                let base = root + subtableOffset[prefix]
                let entry = UInt32(symbol) | UInt32(length - rootBits) << 16
                let size = 1 << (longestUnder[prefix] - rootBits)
                for index in stride(from: reversed >> rootBits, to: size, by: 1 << (length - rootBits)) {
                    table[base + index] = entry
                }
            }
        }
    }

    private static func reverse(_ code: Int, length: Int) -> Int {
        var reversed = 0
        var code = code
        for _ in 0..<length {
            reversed = reversed << 1 | code & 1
            code >>= 1
        }
        return reversed
    }

    /// Reads one symbol with the table at `table`.
    ///
    /// The window must hold at least 15 bits (``VP8LBitReader/fill()`` leaves 56).
    @inline(__always)
    static func readSymbol(_ table: UnsafePointer<UInt32>, _ reader: inout VP8LBitReader) -> Int {
        let bits = reader.peek
        var entry = table[Int(truncatingIfNeeded: bits & 0xFF)]
        var length = Int(truncatingIfNeeded: entry >> 16)
        if length > rootBits {
            reader.skip(rootBits)
            let index = Int(truncatingIfNeeded: (bits >> 8) & ((1 << UInt64(length &- rootBits)) &- 1))
            entry = table[Int(truncatingIfNeeded: entry & 0xFFFF) &+ index]
            length = Int(truncatingIfNeeded: entry >> 16)
        }
        reader.skip(length)
        return Int(truncatingIfNeeded: entry & 0xFFFF)
    }
}

/// Reading the prefix codes: one code (simple or with coded lengths) and the groups of five.
extension VP8LDecoder {
    /// The order the code-length code's lengths are stored in.
    private static let codeLengthOrder: [Int] = [17, 18, 0, 1, 2, 3, 4, 5, 16, 6, 7, 8, 9, 10, 11, 12, 13, 14, 15]
    /// The alphabets of a group's five codes: green + lengths (+ cache), red, blue, alpha,
    /// distance.
    static let alphabetSizes = [256 + 24, 256, 256, 256, 40]

    /// The prefix code groups of an entropy-coded image, and each one's five table offsets.
    struct Groups {
        var tables: [UInt32] = []
        /// Five offsets into `tables` per group: green, red, blue, alpha, distance.
        var offsets: [Int] = []
    }

    /// Reads `groupCount` groups of five codes; groups `isUsed` says are unused are checked but
    /// not kept, as libwebp does when the count is large, so a meta image naming group 65 535
    /// once costs one group's tables.
    mutating func readGroups(count groupCount: Int, cacheBits: Int, isUsed: [Bool]?) throws(WebPError) -> Groups {
        var groups = Groups()
        var scratch: [UInt32] = []
        let cacheSize = cacheBits > 0 ? 1 << cacheBits : 0
        var lengths = [UInt8](repeating: 0, count: Self.alphabetSizes[0] + cacheSize)
        for group in 0..<groupCount {
            let keeps = isUsed?[group] ?? true
            for code in 0..<5 {
                let alphabetSize = Self.alphabetSizes[code] + (code == 0 ? cacheSize : 0)
                if keeps {
                    groups.offsets.append(groups.tables.count)
                    try readCode(alphabetSize: alphabetSize, lengths: &lengths, into: &groups.tables)
                    // Each entry is 4 bytes; the tables count toward the decode's byte limit.
                    guard groups.tables.count <= tableEntryLimit else {
                        throw .decodeTooLarge(bytesNeeded: groups.tables.count * 4, limit: tableEntryLimit * 4)
                    }
                } else {
                    scratch.removeAll(keepingCapacity: true)
                    try readCode(alphabetSize: alphabetSize, lengths: &lengths, into: &scratch)
                }
            }
            if reader.isPastEnd { throw .losslessDataEnded(chunk: chunk) }
        }
        return groups
    }

    /// Reads one prefix code of `alphabetSize` symbols and appends its table.
    private mutating func readCode(
        alphabetSize: Int, lengths: inout [UInt8], into table: inout [UInt32]
    ) throws(WebPError) {
        for index in 0..<lengths.count { lengths[index] = 0 }
        if reader.read(1) == 1 {
            // A simple code: one or two symbols of length 1 (one symbol: 0 bits). A symbol past
            // the alphabet is dropped, as libwebp does.
            let symbolCount = reader.readInt(1) + 1
            let firstSymbol = reader.readInt(reader.readInt(1) == 0 ? 1 : 8)
            var symbols = [firstSymbol]
            if symbolCount == 2 { symbols.append(reader.readInt(8)) }
            var count = 0
            for symbol in symbols where symbol < alphabetSize && lengths[symbol] == 0 {
                lengths[symbol] = 1
                count += 1
            }
            guard count > 0 else { throw .prefixCodeIncomplete }
        } else {
            try readCodeLengths(alphabetSize: alphabetSize, into: &lengths)
        }
        if reader.isPastEnd { throw .losslessDataEnded(chunk: chunk) }
        try lengths.withUnsafeBufferPointer { buffer in
            Result(typedCatching: { () throws(WebPError) in
                // `lengths` holds at least `alphabetSize` entries (sized for the largest alphabet).
                guard let base = buffer.baseAddress else { return }
                try VP8LPrefixCode.build(lengths: base, count: alphabetSize, into: &table)
            })
        }.typedGet()
    }

    /// Reads code lengths coded with the code-length code.
    private mutating func readCodeLengths(alphabetSize: Int, into lengths: inout [UInt8]) throws(WebPError) {
        var codeLengthLengths = [UInt8](repeating: 0, count: 19)
        let storedCount = reader.readInt(4) + 4
        for index in 0..<storedCount {
            codeLengthLengths[Self.codeLengthOrder[index]] = UInt8(reader.read(3))
        }
        var codeLengthTable: [UInt32] = []
        try codeLengthLengths.withUnsafeBufferPointer { buffer in
            Result(typedCatching: { () throws(WebPError) in
                // 19 entries, counted above.
                guard let base = buffer.baseAddress else { return }
                try VP8LPrefixCode.build(lengths: base, count: 19, into: &codeLengthTable)
            })
        }.typedGet()
        var remaining = alphabetSize
        if reader.read(1) == 1 {
            let lengthBits = 2 + 2 * reader.readInt(3)
            remaining = 2 + reader.readInt(lengthBits)
            guard remaining <= alphabetSize else {
                throw .codeLengthsOverflow(symbol: 0, repeat: remaining, alphabetSize: alphabetSize)
            }
        }
        var previous: UInt8 = 8
        var symbol = 0
        try codeLengthTable.withUnsafeBufferPointer { table in
            Result(typedCatching: { () throws(WebPError) in
                // The code-length table was built above and is at least its 256 root entries.
                guard let table = table.baseAddress else { return }
                while symbol < alphabetSize {
                    if remaining == 0 { break }
                    remaining -= 1
                    reader.fill()
                    let value = VP8LPrefixCode.readSymbol(table, &reader)
                    if value < 16 {
                        lengths[symbol] = UInt8(value)
                        symbol += 1
                        if value != 0 { previous = UInt8(value) }
                        continue
                    }
                    let repeatCount: Int
                    let repeated: UInt8
                    switch value {
                    case 16: (repeatCount, repeated) = (3 + reader.readInt(2), previous)
                    case 17: (repeatCount, repeated) = (3 + reader.readInt(3), 0)
                    default: (repeatCount, repeated) = (11 + reader.readInt(7), 0)
                    }
                    guard symbol + repeatCount <= alphabetSize else {
                        throw .codeLengthsOverflow(symbol: symbol, repeat: repeatCount, alphabetSize: alphabetSize)
                    }
                    for _ in 0..<repeatCount {
                        lengths[symbol] = repeated
                        symbol += 1
                    }
                }
            })
        }.typedGet()
    }
}

/// A Huffman table from a DHT segment, prepared for decoding from a left-aligned bit buffer.
///
/// Codes of up to ``lookupBits`` bits are resolved by one lookup of the next ``lookupBits``
/// bits; longer codes by comparing against the largest code of each length (T.81 F.2.2.3). For
/// AC tables a second lookup resolves a run/size symbol *and* its value bits in one step when
/// both fit in ``lookupBits`` bits, which covers most coefficients of photos.
struct JPEGHuffmanTable {
    /// The number of bits resolved by one table lookup. With 10 (6 KiB a table, so the four of
    /// a scan stay in the L1 cache) more codes come with their value bits in one lookup than
    /// with 9 (faster, most at 1/8, where Huffman decoding is most of the work: BENCHMARKS.md).
    static let lookupBits = 10

    /// The tables' memory, freed with the last copy of the table.
    private final class Storage {
        let base: UnsafeMutableRawPointer
        init(byteCount: Int) {
            base = .allocate(byteCount: byteCount, alignment: 16)
            base.initializeMemory(as: UInt8.self, repeating: 0, count: byteCount)
        }
        deinit { base.deallocate() }
    }

    /// Plain pointers into the table for the hot loops; valid while the table is alive.
    struct Pointers {
        /// For each `lookupBits`-bit prefix: `length << 8 | symbol`, or 0 if the code is longer.
        let lookup: UnsafePointer<UInt16>
        /// For each prefix: the coefficients it holds whole, a ``JPEGCoefficientPair`` bit pattern.
        let coefficientPairs: UnsafePointer<UInt64>
        /// For each length 1...16, the largest code of that length, or -1; index 17 is a sentinel.
        let maximumCode: UnsafePointer<Int32>
        /// For each length, the symbol index of its first code minus that code.
        let valueOffset: UnsafePointer<Int32>
        /// The symbols in code order.
        let symbols: UnsafePointer<UInt8>
    }

    private let storage: Storage
    let pointers: Pointers
    /// The number of symbols.
    let symbolCount: Int

    /// Builds the table from the 16 code counts and the symbols of a DHT entry.
    ///
    /// - Parameter isDC: Whether the table is a DC table, which decodes no coefficients: its
    ///   ``Pointers/coefficientPairs`` then say no coefficient for every prefix, which saves
    ///   building them (a few microseconds a table, measurable on small images).
    /// - Returns: `nil` if the counts describe more codes than fit their lengths (libjpeg
    ///   rejects the all-ones code too) or more than 256 symbols.
    init?(counts: [Int], symbols: [UInt8], isDC: Bool = false) {
        guard counts.count == 16, symbols.count == counts.reduce(0, +), symbols.count <= 256 else { return nil }
        let entries = 1 << Self.lookupBits
        storage = Storage(byteCount: entries * 2 + entries * 8 + 18 * 4 * 2 + 256)
        let base = storage.base
        let lookup = base.bindMemory(to: UInt16.self, capacity: entries)
        let coefficientPairs = (base + entries * 2).bindMemory(to: UInt64.self, capacity: entries)
        let maximumCode = (base + entries * 10).bindMemory(to: Int32.self, capacity: 18)
        let valueOffset = (base + entries * 10 + 72).bindMemory(to: Int32.self, capacity: 18)
        let symbolStorage = (base + entries * 10 + 144).bindMemory(to: UInt8.self, capacity: 256)
        pointers = Pointers(
            lookup: lookup, coefficientPairs: coefficientPairs, maximumCode: maximumCode,
            valueOffset: valueOffset, symbols: symbolStorage
        )
        symbolCount = symbols.count
        for (index, symbol) in symbols.enumerated() { symbolStorage[index] = symbol }
        for length in 0..<18 { maximumCode[length] = -1 }
        var code: Int32 = 0
        var symbolIndex = 0
        for length in 1...16 {
            let count = counts[length - 1]
            if count > 0 {
                valueOffset[length] = Int32(symbolIndex) - code
                for _ in 0..<count {
                    guard code < (1 << length) else { return nil }
                    if length <= Self.lookupBits {
                        let shift = Self.lookupBits - length
                        let first = Int(code) << shift
                        let symbol = Int(symbols[symbolIndex])
                        let entry = UInt16(length) << 8 | UInt16(symbol)
                        for index in first..<(first + (1 << shift)) { lookup[index] = entry }
                    }
                    code += 1
                    symbolIndex += 1
                }
                maximumCode[length] = code - 1
            }
            // The codes of this length must leave room below the all-ones pattern.
            guard code < (1 << length) else { return nil }
            code <<= 1
        }
        maximumCode[17] = Int32.max
        if isDC {
            coefficientPairs.initialize(repeating: JPEGCoefficientPair.noCoefficient, count: entries)
        } else {
            JPEGCoefficientPair.fill(coefficientPairs, from: lookup)
        }
    }

    /// Whether every symbol is at most 15, as DC tables require.
    var isValidForDC: Bool {
        (0..<symbolCount).allSatisfy { pointers.symbols[$0] <= 15 }
    }

    /// The table of a DHT entry: one of the shared tables when the entry is one of T.81 Annex
    /// K.3's (encoders without Huffman optimization and most cameras use them), else a new one.
    /// Building an AC table's coefficient pairs is a noticeable share of a small photo's decode
    /// (BENCHMARKS.md).
    ///
    /// - Returns: `nil` if the entry is invalid, as ``init(counts:symbols:isDC:)``.
    static func make(counts: [Int], symbols: [UInt8], isDC: Bool) -> JPEGHuffmanTable? {
        for standard in StandardHuffmanTables.shared
        where standard.isDC == isDC && standard.counts == counts && standard.symbols == symbols {
            return standard.table
        }
        return JPEGHuffmanTable(counts: counts, symbols: symbols, isDC: isDC)
    }

    /// The standard tables of T.81 Annex K.3, which libjpeg substitutes for undefined slots 0 and
    /// 1 in sequential files (Motion-JPEG frames omit their DHT).
    static func standardTable(isDC: Bool, id: Int) -> JPEGHuffmanTable? {
        guard id < 2 else { return nil }
        // Luminance first, then chrominance, for each class.
        return StandardHuffmanTables.shared.filter { $0.isDC == isDC }[id].table
    }
}

// The table's memory is written only by `init`; every copy afterwards only reads it, so the
// shared standard tables can be read by any thread.
extension JPEGHuffmanTable: @unchecked Sendable {}

/// The tables of T.81 Annex K.3 (Tables K.3 to K.6); the package's test encoder writes them too.
package enum StandardHuffmanTables {
    /// One standard table: its DHT entry and the table built from it once.
    struct Shared: Sendable {
        let isDC: Bool
        let counts: [Int]
        let symbols: [UInt8]
        let table: JPEGHuffmanTable
    }

    /// Luminance DC, chrominance DC, luminance AC, chrominance AC.
    static let shared: [Shared] = [
        (true, luminanceDCCounts, Array(0...11)), (true, chrominanceDCCounts, Array(0...11)),
        (false, luminanceACCounts, luminanceACSymbols), (false, chrominanceACCounts, chrominanceACSymbols),
    ].map { isDC, counts, symbols in
        guard let table = JPEGHuffmanTable(counts: counts, symbols: symbols, isDC: isDC) else {
            preconditionFailure("a standard Huffman table is invalid")
        }
        return Shared(isDC: isDC, counts: counts, symbols: symbols, table: table)
    }

    package static let luminanceDCCounts = [0, 1, 5, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0, 0, 0]
    package static let chrominanceDCCounts = [0, 3, 1, 1, 1, 1, 1, 1, 1, 1, 1, 0, 0, 0, 0, 0]
    package static let luminanceACCounts = [0, 2, 1, 3, 3, 2, 4, 3, 5, 5, 4, 4, 0, 0, 1, 0x7D]
    package static let luminanceACSymbols: [UInt8] = [
        0x01, 0x02, 0x03, 0x00, 0x04, 0x11, 0x05, 0x12, 0x21, 0x31, 0x41, 0x06, 0x13, 0x51, 0x61, 0x07,
        0x22, 0x71, 0x14, 0x32, 0x81, 0x91, 0xA1, 0x08, 0x23, 0x42, 0xB1, 0xC1, 0x15, 0x52, 0xD1, 0xF0,
        0x24, 0x33, 0x62, 0x72, 0x82, 0x09, 0x0A, 0x16, 0x17, 0x18, 0x19, 0x1A, 0x25, 0x26, 0x27, 0x28,
        0x29, 0x2A, 0x34, 0x35, 0x36, 0x37, 0x38, 0x39, 0x3A, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48, 0x49,
        0x4A, 0x53, 0x54, 0x55, 0x56, 0x57, 0x58, 0x59, 0x5A, 0x63, 0x64, 0x65, 0x66, 0x67, 0x68, 0x69,
        0x6A, 0x73, 0x74, 0x75, 0x76, 0x77, 0x78, 0x79, 0x7A, 0x83, 0x84, 0x85, 0x86, 0x87, 0x88, 0x89,
        0x8A, 0x92, 0x93, 0x94, 0x95, 0x96, 0x97, 0x98, 0x99, 0x9A, 0xA2, 0xA3, 0xA4, 0xA5, 0xA6, 0xA7,
        0xA8, 0xA9, 0xAA, 0xB2, 0xB3, 0xB4, 0xB5, 0xB6, 0xB7, 0xB8, 0xB9, 0xBA, 0xC2, 0xC3, 0xC4, 0xC5,
        0xC6, 0xC7, 0xC8, 0xC9, 0xCA, 0xD2, 0xD3, 0xD4, 0xD5, 0xD6, 0xD7, 0xD8, 0xD9, 0xDA, 0xE1, 0xE2,
        0xE3, 0xE4, 0xE5, 0xE6, 0xE7, 0xE8, 0xE9, 0xEA, 0xF1, 0xF2, 0xF3, 0xF4, 0xF5, 0xF6, 0xF7, 0xF8,
        0xF9, 0xFA,
    ]
    package static let chrominanceACCounts = [0, 2, 1, 2, 4, 4, 3, 4, 7, 5, 4, 4, 0, 1, 2, 0x77]
    package static let chrominanceACSymbols: [UInt8] = [
        0x00, 0x01, 0x02, 0x03, 0x11, 0x04, 0x05, 0x21, 0x31, 0x06, 0x12, 0x41, 0x51, 0x07, 0x61, 0x71,
        0x13, 0x22, 0x32, 0x81, 0x08, 0x14, 0x42, 0x91, 0xA1, 0xB1, 0xC1, 0x09, 0x23, 0x33, 0x52, 0xF0,
        0x15, 0x62, 0x72, 0xD1, 0x0A, 0x16, 0x24, 0x34, 0xE1, 0x25, 0xF1, 0x17, 0x18, 0x19, 0x1A, 0x26,
        0x27, 0x28, 0x29, 0x2A, 0x35, 0x36, 0x37, 0x38, 0x39, 0x3A, 0x43, 0x44, 0x45, 0x46, 0x47, 0x48,
        0x49, 0x4A, 0x53, 0x54, 0x55, 0x56, 0x57, 0x58, 0x59, 0x5A, 0x63, 0x64, 0x65, 0x66, 0x67, 0x68,
        0x69, 0x6A, 0x73, 0x74, 0x75, 0x76, 0x77, 0x78, 0x79, 0x7A, 0x82, 0x83, 0x84, 0x85, 0x86, 0x87,
        0x88, 0x89, 0x8A, 0x92, 0x93, 0x94, 0x95, 0x96, 0x97, 0x98, 0x99, 0x9A, 0xA2, 0xA3, 0xA4, 0xA5,
        0xA6, 0xA7, 0xA8, 0xA9, 0xAA, 0xB2, 0xB3, 0xB4, 0xB5, 0xB6, 0xB7, 0xB8, 0xB9, 0xBA, 0xC2, 0xC3,
        0xC4, 0xC5, 0xC6, 0xC7, 0xC8, 0xC9, 0xCA, 0xD2, 0xD3, 0xD4, 0xD5, 0xD6, 0xD7, 0xD8, 0xD9, 0xDA,
        0xE2, 0xE3, 0xE4, 0xE5, 0xE6, 0xE7, 0xE8, 0xE9, 0xEA, 0xF2, 0xF3, 0xF4, 0xF5, 0xF6, 0xF7, 0xF8,
        0xF9, 0xFA,
    ]
}

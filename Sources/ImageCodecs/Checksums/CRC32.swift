/// The CRC-32 that PNG stores after every chunk (ISO 3309, reflected polynomial `0xEDB88320`,
/// initial value and final XOR `0xFFFFFFFF`).
///
/// Uses sixteen lookup tables to fold sixteen bytes per step ("slicing by 16"): the checksum
/// covers every byte of the file, and the steps form a dependency chain, so the fewer steps the
/// better. Longer inputs run three chains at once, over three consecutive blocks of
/// ``blockCount`` bytes (two chains over the last two blocks), and join them: the CRC register
/// is linear, so the register after `A‖B` is the register after `A` multiplied by `x^(8·|B|)`
/// modulo the polynomial, plus (xor) the register of `B` alone started from zero. With `|B|`
/// fixed, that multiplication is four table lookups.
package enum CRC32 {
    /// The bytes each chain takes per round; a multiple of 16.
    static let blockCount = 1_024

    /// Sixteen 256-entry tables, one after another: entry `256 * k + b` is the CRC contribution of
    /// byte `b` followed by `k` zero bytes.
    static let tables = ConstantTable<UInt32>(
        {
            var tables = [UInt32](repeating: 0, count: 16 * 256)
            for byte in 0..<256 {
                var crc = UInt32(byte)
                for _ in 0..<8 {
                    crc = crc & 1 == 1 ? (crc >> 1) ^ 0xEDB8_8320 : crc >> 1
                }
                tables[byte] = crc
            }
            for index in 256..<(16 * 256) {
                let previous = tables[index - 256]
                tables[index] = (previous >> 8) ^ tables[Int(previous & 0xFF)]
            }
            return tables
        }())

    /// Four 256-entry tables: entry `256 * k + b` is byte `b` at byte position `k` of a register
    /// (bits `8k..<8k+8`) multiplied by `x^(8 · blockCount)` modulo the polynomial, so that a
    /// register shifts past a block of zeros with four lookups.
    private static let blockShiftTables = ConstantTable<UInt32>(
        {
            // In the reflected representation bit 31 is x⁰ and bit 0 is x³¹.
            func multiply(_ a: UInt32, _ b: UInt32) -> UInt32 {
                var product: UInt32 = 0
                var factor = b
                for bit in (0..<32).reversed() {
                    if a >> UInt32(bit) & 1 == 1 { product ^= factor }
                    factor = factor & 1 == 1 ? (factor >> 1) ^ 0xEDB8_8320 : factor >> 1
                }
                return product
            }
            // x^(8 · blockCount) by repeated squaring of x.
            var power: UInt32 = 1 << 31
            var square: UInt32 = 1 << 30
            var exponent = 8 * blockCount
            while exponent > 0 {
                if exponent & 1 == 1 { power = multiply(power, square) }
                square = multiply(square, square)
                exponent >>= 1
            }
            var tables = [UInt32](repeating: 0, count: 4 * 256)
            for position in 0..<4 {
                for byte in 0..<256 {
                    tables[256 * position + byte] = multiply(UInt32(byte) << UInt32(8 * position), power)
                }
            }
            return tables
        }())

    /// Computes the CRC-32 of `bytes`.
    ///
    /// - Parameter bytes: The bytes to check; for a chunk, its type and data.
    /// - Returns: The checksum as PNG stores it.
    /// - Complexity: O(`bytes.count`).
    package static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        ~update(0xFFFF_FFFF, with: bytes)
    }

    /// The register after folding in `bytes`: start from `0xFFFF_FFFF`, and the checksum is the
    /// final register inverted. Lets a checksum be computed in pieces.
    package static func update(_ register: UInt32, with bytes: UnsafeRawBufferPointer) -> UInt32 {
        guard let base = bytes.baseAddress else { return register }
        // The tables hold exactly 4096 entries and every index below is masked to a byte
        // within its 256-entry table, so unchecked reads are safe.
        let table = tables.pointer
        @inline(__always)
        func lookup(_ slice: Int, _ value: UInt32, _ shift: UInt32) -> UInt32 {
            table[slice &* 256 &+ Int((value &>> shift) & 0xFF)]
        }
        /// `crc` advanced over the 16 bytes at `offset`.
        @inline(__always)
        func step(_ crc: UInt32, _ offset: Int) -> UInt32 {
            let low = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
            let high = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset &+ 8, as: UInt64.self))
            let word0 = UInt32(truncatingIfNeeded: low) ^ crc
            let word1 = UInt32(truncatingIfNeeded: low &>> 32)
            let word2 = UInt32(truncatingIfNeeded: high)
            let word3 = UInt32(truncatingIfNeeded: high &>> 32)
            return lookup(15, word0, 0) ^ lookup(14, word0, 8) ^ lookup(13, word0, 16) ^ lookup(12, word0, 24)
                ^ lookup(11, word1, 0) ^ lookup(10, word1, 8) ^ lookup(9, word1, 16) ^ lookup(8, word1, 24)
                ^ lookup(7, word2, 0) ^ lookup(6, word2, 8) ^ lookup(5, word2, 16) ^ lookup(4, word2, 24)
                ^ lookup(3, word3, 0) ^ lookup(2, word3, 8) ^ lookup(1, word3, 16) ^ lookup(0, word3, 24)
        }
        var crc = register
        var offset = 0
        let count = bytes.count
        if count >= 2 &* blockCount {
            // 1024 entries, each index masked to a byte within its 256-entry table.
            let shift = blockShiftTables.pointer
            @inline(__always)
            func shiftedPastBlock(_ crc: UInt32) -> UInt32 {
                shift[Int(crc & 0xFF)] ^ shift[256 &+ Int(crc &>> 8 & 0xFF)]
                    ^ shift[512 &+ Int(crc &>> 16 & 0xFF)] ^ shift[768 &+ Int(crc &>> 24)]
            }
            while count &- offset >= 3 &* blockCount {
                var first = crc
                var second: UInt32 = 0
                var third: UInt32 = 0
                for blockOffset in stride(from: offset, to: offset &+ blockCount, by: 16) {
                    first = step(first, blockOffset)
                    second = step(second, blockOffset &+ blockCount)
                    third = step(third, blockOffset &+ 2 &* blockCount)
                }
                crc = shiftedPastBlock(shiftedPastBlock(first) ^ second) ^ third
                offset &+= 3 &* blockCount
            }
            // Two blocks left (or an input of 2–3 KiB, a disk cache body): two chains.
            if count &- offset >= 2 &* blockCount {
                var first = crc
                var second: UInt32 = 0
                for blockOffset in stride(from: offset, to: offset &+ blockCount, by: 16) {
                    first = step(first, blockOffset)
                    second = step(second, blockOffset &+ blockCount)
                }
                crc = shiftedPastBlock(first) ^ second
                offset &+= 2 &* blockCount
            }
        }
        while count &- offset >= 16 {
            crc = step(crc, offset)
            offset &+= 16
        }
        while offset < count {
            let byte = base.load(fromByteOffset: offset, as: UInt8.self)
            crc = (crc &>> 8) ^ table[Int((crc ^ UInt32(byte)) & 0xFF)]
            offset &+= 1
        }
        return crc
    }

    /// The register after folding in the 8 bytes at `bytes`: one step with eight lookups, for a
    /// loop that folds a few bytes at a time alongside other work (see ``CRC32Lane``).
    ///
    /// - Parameter table: ``tables``' pointer, which the caller keeps in a register.
    @inline(__always)
    static func fold8(_ register: UInt32, _ bytes: UnsafeRawPointer, table: UnsafePointer<UInt32>) -> UInt32 {
        let word = UInt64(littleEndian: bytes.loadUnaligned(as: UInt64.self)) ^ UInt64(register)
        // Byte `k` of the word is followed by `7 - k` more bytes: table `7 - k`.
        @inline(__always)
        func lookup(_ slice: Int, _ shift: UInt64) -> UInt32 {
            table[slice &* 256 &+ Int(truncatingIfNeeded: (word &>> shift) & 0xFF)]
        }
        return (lookup(7, 0) ^ lookup(6, 8)) ^ (lookup(5, 16) ^ lookup(4, 24))
            ^ ((lookup(3, 32) ^ lookup(2, 40)) ^ (lookup(1, 48) ^ lookup(0, 56)))
    }
}

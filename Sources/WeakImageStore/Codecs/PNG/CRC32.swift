/// The CRC-32 that PNG stores after every chunk (ISO 3309, reflected polynomial `0xEDB88320`,
/// initial value and final XOR `0xFFFFFFFF`).
///
/// Uses sixteen lookup tables to fold sixteen bytes per step ("slicing by 16"): the checksum
/// covers every byte of the file, and the steps form a dependency chain, so the fewer steps the
/// better.
enum CRC32 {
    /// Sixteen 256-entry tables, one after another: entry `256 * k + b` is the CRC contribution of
    /// byte `b` followed by `k` zero bytes.
    private static let tables: [UInt32] = {
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
    }()

    /// Computes the CRC-32 of `bytes`.
    ///
    /// - Parameter bytes: The bytes to check; for a chunk, its type and data.
    /// - Returns: The checksum as PNG stores it.
    /// - Complexity: O(`bytes.count`).
    static func checksum(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        guard let base = bytes.baseAddress else { return 0 }
        return tables.withUnsafeBufferPointer { tables in
            // The tables hold exactly 4096 entries and every index below is masked to a byte
            // within its 256-entry table, so unchecked reads are safe.
            let table = tables.baseAddress.unsafelyUnwrapped
            @inline(__always)
            func lookup(_ slice: Int, _ value: UInt32, _ shift: UInt32) -> UInt32 {
                table[slice &* 256 &+ Int((value &>> shift) & 0xFF)]
            }
            var crc: UInt32 = 0xFFFF_FFFF
            var offset = 0
            let count = bytes.count
            while count &- offset >= 16 {
                let low = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset, as: UInt64.self))
                let high = UInt64(littleEndian: base.loadUnaligned(fromByteOffset: offset &+ 8, as: UInt64.self))
                let word0 = UInt32(truncatingIfNeeded: low) ^ crc
                let word1 = UInt32(truncatingIfNeeded: low &>> 32)
                let word2 = UInt32(truncatingIfNeeded: high)
                let word3 = UInt32(truncatingIfNeeded: high &>> 32)
                crc =
                    lookup(15, word0, 0) ^ lookup(14, word0, 8) ^ lookup(13, word0, 16) ^ lookup(12, word0, 24)
                    ^ lookup(11, word1, 0) ^ lookup(10, word1, 8) ^ lookup(9, word1, 16) ^ lookup(8, word1, 24)
                    ^ lookup(7, word2, 0) ^ lookup(6, word2, 8) ^ lookup(5, word2, 16) ^ lookup(4, word2, 24)
                    ^ lookup(3, word3, 0) ^ lookup(2, word3, 8) ^ lookup(1, word3, 16) ^ lookup(0, word3, 24)
                offset &+= 16
            }
            while offset < count {
                let byte = base.load(fromByteOffset: offset, as: UInt8.self)
                crc = (crc &>> 8) ^ table[Int((crc ^ UInt32(byte)) & 0xFF)]
                offset &+= 1
            }
            return ~crc
        }
    }
}

/// The two checksums a PNG file carries: CRC-32 over every chunk (ISO 3309, as PNG specifies)
/// and Adler-32 over the uncompressed data in the zlib wrapper (RFC 1950).
enum Checksums {
    private static let crcTable: [UInt32] = (0..<256).map { index in
        var value = UInt32(index)
        for _ in 0..<8 {
            value = (value & 1) != 0 ? 0xEDB8_8320 ^ (value >> 1) : value >> 1
        }
        return value
    }

    /// The CRC-32 of `bytes`, continuing from `crc` (pass the previous result to checksum pieces).
    static func crc32<Bytes: Sequence<UInt8>>(_ bytes: Bytes, continuing crc: UInt32 = 0) -> UInt32 {
        var value = ~crc
        crcTable.withUnsafeBufferPointer { table in
            for byte in bytes {
                value = table[Int((value ^ UInt32(byte)) & 0xFF)] ^ (value >> 8)
            }
        }
        return ~value
    }

    /// The Adler-32 of `bytes`.
    static func adler32(_ bytes: [UInt8]) -> UInt32 {
        // 5552 is the most bytes whose sums cannot overflow 32 bits before the modulo (zlib's NMAX).
        let modulus: UInt32 = 65521
        var low: UInt32 = 1
        var high: UInt32 = 0
        bytes.withUnsafeBufferPointer { buffer in
            var start = 0
            while start < buffer.count {
                let end = min(start + 5552, buffer.count)
                for index in start..<end {
                    low &+= UInt32(buffer[index])
                    high &+= low
                }
                low %= modulus
                high %= modulus
                start = end
            }
        }
        return (high << 16) | low
    }
}

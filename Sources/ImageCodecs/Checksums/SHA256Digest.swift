/// The 32 bytes of a SHA-256 hash, as four big-endian words so that comparing and hashing them
/// costs four integer operations.
package struct SHA256Digest: Hashable, Sendable, CustomStringConvertible {
    /// Bytes 0–7, most significant byte first.
    package var word0: UInt64
    /// Bytes 8–15.
    package var word1: UInt64
    /// Bytes 16–23.
    package var word2: UInt64
    /// Bytes 24–31.
    package var word3: UInt64

    /// The digest whose bytes, in order, are `bytes`; at least 32 of them.
    package init(bytes: UnsafeRawBufferPointer) {
        precondition(bytes.count >= 32, "a SHA-256 digest is 32 bytes")
        word0 = UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: 0, as: UInt64.self))
        word1 = UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: 8, as: UInt64.self))
        word2 = UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: 16, as: UInt64.self))
        word3 = UInt64(bigEndian: bytes.loadUnaligned(fromByteOffset: 24, as: UInt64.self))
    }

    package init(word0: UInt64, word1: UInt64, word2: UInt64, word3: UInt64) {
        self.word0 = word0
        self.word1 = word1
        self.word2 = word2
        self.word3 = word3
    }

    /// Writes the 32 bytes, in order, at the start of `destination`.
    func store(to destination: UnsafeMutableRawBufferPointer) {
        precondition(destination.count >= 32, "a SHA-256 digest is 32 bytes")
        destination.storeBytes(of: word0.bigEndian, toByteOffset: 0, as: UInt64.self)
        destination.storeBytes(of: word1.bigEndian, toByteOffset: 8, as: UInt64.self)
        destination.storeBytes(of: word2.bigEndian, toByteOffset: 16, as: UInt64.self)
        destination.storeBytes(of: word3.bigEndian, toByteOffset: 24, as: UInt64.self)
    }

    /// The 32 bytes, in order.
    var bytes: [UInt8] {
        [UInt8](unsafeUninitializedCapacity: 32) { buffer, initialized in
            store(to: UnsafeMutableRawBufferPointer(buffer))
            initialized = 32
        }
    }

    /// 64 lowercase hexadecimal digits, most significant first.
    package var description: String {
        String(unsafeUninitializedCapacity: 64) { buffer in
            buffer.withMemoryRebound(to: CChar.self) { writeHexDigits(into: $0) }
            return 64
        }
    }

    /// Writes the 64 lowercase hex digits into the first 64 elements of `buffer`.
    package func writeHexDigits(into buffer: UnsafeMutableBufferPointer<CChar>) {
        precondition(buffer.count >= 64, "a digest spells 64 hex digits")
        var position = 0
        for word in [word0, word1, word2, word3] {
            for shift in stride(from: 60, through: 0, by: -4) {
                let digit = UInt8((word >> UInt64(shift)) & 0xF)
                buffer[position] = CChar(bitPattern: digit < 10 ? digit + 48 : digit + 87)
                position += 1
            }
        }
    }
}

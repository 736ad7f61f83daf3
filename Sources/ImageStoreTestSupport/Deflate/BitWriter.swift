/// Packs DEFLATE's bit fields into bytes, least significant bit first (RFC 1951, section 3.1.1).
struct BitWriter {
    private(set) var bytes: [UInt8] = []
    private var buffer: UInt64 = 0
    private var bufferedBitCount = 0

    init(reservingCapacity capacity: Int) {
        bytes.reserveCapacity(capacity)
    }

    /// Appends the low `count` bits of `value`, lowest first; `count` is at most 32.
    mutating func write(_ value: UInt32, bitCount count: Int) {
        buffer |= UInt64(value & UInt32(truncatingIfNeeded: (UInt64(1) << count) - 1)) << bufferedBitCount
        bufferedBitCount += count
        while bufferedBitCount >= 8 {
            bytes.append(UInt8(truncatingIfNeeded: buffer))
            buffer >>= 8
            bufferedBitCount -= 8
        }
    }

    /// Appends a Huffman code, which DEFLATE stores most significant bit first.
    mutating func write(huffmanCode code: UInt16, length: Int) {
        var reversed: UInt32 = 0
        var remaining = UInt32(code)
        for _ in 0..<length {
            reversed = (reversed << 1) | (remaining & 1)
            remaining >>= 1
        }
        write(reversed, bitCount: length)
    }

    /// Pads with zero bits to the next byte boundary, as stored blocks and the stream's end need.
    mutating func alignToByte() {
        if bufferedBitCount > 0 {
            write(0, bitCount: 8 - bufferedBitCount)
        }
    }

    /// Appends whole bytes; the writer must be byte-aligned.
    mutating func append<Bytes: Collection<UInt8>>(contentsOf newBytes: Bytes) {
        precondition(bufferedBitCount == 0, "BitWriter.append needs a byte boundary")
        bytes.append(contentsOf: newBytes)
    }
}

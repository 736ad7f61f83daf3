/// Packs a JPEG scan's Huffman codes and extra bits into bytes, most significant bit first, with
/// the byte stuffing of ITU T.81 F.1.2.3: every 0xFF byte of entropy-coded data is followed by
/// 0x00, so that a decoder never takes data for a marker.
struct JPEGBitWriter {
    private(set) var bytes: [UInt8]
    /// Pending bits, right-aligned: the oldest is the most significant of the low `pendingBitCount`.
    private var pending: UInt64 = 0
    private var pendingBitCount = 0

    /// A writer whose output continues `prefix` (the file's headers).
    init(continuing prefix: [UInt8], reservingCapacity capacity: Int) {
        bytes = prefix
        bytes.reserveCapacity(prefix.count + capacity)
    }

    /// Appends the low `count` bits of `value`, most significant first; `count` is at most 32.
    @inline(__always)
    mutating func write(_ value: UInt32, bitCount count: Int) {
        pending = (pending << UInt64(count)) | UInt64(value & UInt32(truncatingIfNeeded: (UInt64(1) << count) - 1))
        pendingBitCount += count
        // At most 7 + 32 bits pend here, so the shift above never loses bits.
        while pendingBitCount >= 8 {
            pendingBitCount -= 8
            let byte = UInt8(truncatingIfNeeded: pending >> UInt64(pendingBitCount))
            bytes.append(byte)
            if byte == 0xFF { bytes.append(0x00) }
        }
    }

    /// Pads the last byte with 1-bits, as T.81 F.1.2.3 asks before a marker, and returns the bytes.
    mutating func finish() -> [UInt8] {
        if pendingBitCount > 0 {
            let padding = 8 - pendingBitCount
            write((1 << UInt32(padding)) - 1, bitCount: padding)
        }
        return bytes
    }
}

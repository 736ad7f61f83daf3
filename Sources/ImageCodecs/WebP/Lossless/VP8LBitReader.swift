/// Reads a VP8L bitstream least-significant bit first, through a 64-bit window.
///
/// Reading past the end yields zero bits and is remembered: ``isPastEnd`` turns true once more
/// bits were consumed than the stream holds, which the decoder checks at its checkpoints (after
/// every header, every row) rather than per bit, as libwebp does.
struct VP8LBitReader {
    private let bytes: UnsafePointer<UInt8>?
    private let count: Int
    /// The next byte to load into `window`.
    private var position = 0
    /// Zero bytes loaded after the end.
    private var virtualBytes = 0
    private var window: UInt64 = 0
    private var bitCount = 0

    /// A reader over `buffer`, which must outlive it.
    init(_ buffer: UnsafeRawBufferPointer) {
        bytes = buffer.baseAddress?.assumingMemoryBound(to: UInt8.self)
        count = buffer.count
    }

    /// Whether more bits were consumed than the stream holds.
    var isPastEnd: Bool {
        (position &+ virtualBytes) &* 8 &- bitCount > count &* 8
    }

    /// Tops the window up to at least 56 bits.
    @inline(__always)
    mutating func fill() {
        guard bitCount < 56 else { return }
        if let bytes, position &+ 8 <= count {
            // Proven here: 8 bytes from `position` lie inside the stream.
            let word = UInt64(littleEndian: UnsafeRawPointer(bytes + position).loadUnaligned(as: UInt64.self))
            window |= word << UInt64(bitCount)
            let loaded = (63 &- bitCount) >> 3
            position &+= loaded
            bitCount &+= loaded &* 8
            return
        }
        while bitCount <= 56 {
            if let bytes, position < count {
                window |= UInt64(bytes[position]) << UInt64(bitCount)
                position &+= 1
            } else {
                virtualBytes &+= 1
            }
            bitCount &+= 8
        }
    }

    /// The next bits without consuming them; at least 56 are valid after ``fill()``.
    @inline(__always)
    var peek: UInt64 { window }

    /// Consumes `n` bits (at most the bits in the window).
    @inline(__always)
    mutating func skip(_ n: Int) {
        window >>= UInt64(n)
        bitCount &-= n
    }

    /// Reads `n` bits, 0 ≤ n ≤ 32, as an unsigned number.
    @inline(__always)
    mutating func read(_ n: Int) -> UInt32 {
        fill()
        let value = UInt32(truncatingIfNeeded: window & ((1 << UInt64(n)) &- 1))
        skip(n)
        return value
    }

    /// Reads `n` bits as an `Int`.
    @inline(__always)
    mutating func readInt(_ n: Int) -> Int {
        Int(read(n))
    }
}

/// The boolean entropy decoder of RFC 6386 §7, reading one partition.
///
/// The value is kept in a 64-bit window refilled seven bytes at a time; `bitCount` is how many
/// bits lie below the 8-bit part compared with the split. Past the data it behaves as libwebp
/// does: one zero byte is appended and ``reachedEnd`` set, which is how libwebp tells that a
/// partition was too short (it checks the flag after each macroblock row or macroblock).
struct VP8BoolDecoder {
    private var next: UnsafePointer<UInt8>
    private let end: UnsafePointer<UInt8>
    private var value: UInt64 = 0
    /// The range minus one, 127...254 between calls.
    private var range: UInt32 = 254
    private var bitCount = -8
    /// Whether the decoder needed a byte past the partition's end.
    private(set) var reachedEnd = false

    /// Reads the `count` bytes at `start`, which must stay valid while the decoder is used.
    init(_ start: UnsafePointer<UInt8>, count: Int) {
        next = start
        end = start + count
        load()
    }

    @inline(__always)
    private mutating func load() {
        // Proven: `next + 8 <= end` before the 8-byte read; single bytes only while `next < end`.
        if end - next >= 8 {
            let word = UInt64(bigEndian: UnsafeRawPointer(next).loadUnaligned(as: UInt64.self))
            value = (value &<< 56) | (word &>> 8)
            next += 7
            bitCount &+= 56
        } else {
            (value, bitCount, next, reachedEnd) = Self.loadFinalByte(value, bitCount, next, end, reachedEnd)
        }
    }

    /// The byte-by-byte end of a partition, out of line and on values rather than `self`, so
    /// that the decoder's state can stay in registers in the token loop.
    @inline(never)
    private static func loadFinalByte(
        _ value: UInt64, _ bitCount: Int, _ next: UnsafePointer<UInt8>, _ end: UnsafePointer<UInt8>,
        _ reachedEnd: Bool
    ) -> (UInt64, Int, UnsafePointer<UInt8>, Bool) {
        if next < end { return ((value &<< 8) | UInt64(next.pointee), bitCount &+ 8, next + 1, reachedEnd) }
        // Past the end libwebp appends one zero byte, then keeps reading without shifting.
        if !reachedEnd { return (value &<< 8, bitCount &+ 8, next, true) }
        return (value, 0, next, true)
    }

    /// Decodes one boolean whose probability of being `false` is `probability / 256`.
    @inline(__always)
    mutating func bit(_ probability: UInt8) -> Bool {
        if bitCount < 0 { load() }
        let shift = UInt64(truncatingIfNeeded: bitCount)
        let split = (range &* UInt32(probability)) &>> 8
        let window = UInt32(truncatingIfNeeded: value &>> shift)
        let result = window > split
        // Selects rather than a branch: the caller branches on the result anyway, and one
        // mispredicted branch per bit is enough.
        let newRange = result ? range &- split : split &+ 1
        value &-= result ? UInt64(split &+ 1) &<< shift : 0
        let normalization = newRange.leadingZeroBitCount &- 24
        range = (newRange &<< UInt32(truncatingIfNeeded: normalization)) &- 1
        bitCount &-= normalization
        return result
    }

    /// Decodes a boolean of probability one half, as 0 or 1.
    @inline(__always)
    mutating func flag() -> Int { bit(128) ? 1 : 0 }

    /// Decodes an unsigned `count`-bit literal, most significant bit first.
    mutating func literal(_ count: Int) -> Int {
        var result = 0
        for _ in 0..<count { result = result << 1 | flag() }
        return result
    }

    /// Decodes a `count`-bit magnitude followed by its sign.
    mutating func signedLiteral(_ count: Int) -> Int {
        let magnitude = literal(count)
        return flag() == 1 ? -magnitude : magnitude
    }

    /// Applies a sign bit (probability one half) to `magnitude`, without a branch: signs are
    /// random, so a branch would be mispredicted half the time.
    ///
    /// Equal to `bit(128)` whenever the range is below 255, which holds after the first read of
    /// a partition: the split is then `range / 2` and the new range always needs one shift.
    @inline(__always)
    mutating func signed(_ magnitude: Int32) -> Int32 {
        if bitCount < 0 { load() }
        let shift = UInt64(truncatingIfNeeded: bitCount)
        let split = range &>> 1
        let window = UInt32(truncatingIfNeeded: value &>> shift)
        let mask = UInt32(bitPattern: Int32(bitPattern: split &- window) &>> 31)
        bitCount &-= 1
        range = (range &+ mask) | 1
        value &-= UInt64((split &+ 1) & mask) &<< shift
        let sign = Int32(bitPattern: mask)
        return (magnitude ^ sign) &- sign
    }
}

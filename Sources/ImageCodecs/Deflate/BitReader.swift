/// Reads a deflate stream least significant bit first from a 64-bit buffer.
///
/// ``refill()`` tops the buffer up to at least 56 bits with one unaligned 8-byte load and no
/// per-byte loop, so a whole literal/length code, its extra bits, the distance code and its extra
/// bits (at most 48 bits) follow one refill. The load may read up to 16 bytes past the end of the
/// data, so the input must be followed by ``padding`` readable bytes; bits taken from the padding
/// are detected by ``isOverrun`` and reported as a truncated stream.
struct BitReader {
    /// The readable bytes the input must have after its end.
    static let padding = 16

    /// The buffered bits; bit 0 is the next bit of the stream.
    private(set) var bits: UInt64 = 0
    /// How many of ``bits`` are valid.
    private(set) var bitCount = 0
    /// The next byte to load into the buffer.
    private var position: UnsafePointer<UInt8>
    private let start: UnsafePointer<UInt8>
    private let end: UnsafePointer<UInt8>
    /// The last position an 8-byte load may start at without leaving the padding.
    private let refillLimit: UnsafePointer<UInt8>
    /// Past this position ``isPastPauseLimit`` is true: a streaming inflater then pauses at the
    /// next symbol to bring in more input. ``refillLimit`` when the input is complete.
    private let pauseLimit: UnsafePointer<UInt8>
    /// ``pauseLimit`` less the most two refills advance: up to here, three refills in a row
    /// stay within ``refillLimit``.
    private let threeRefillLimit: UnsafePointer<UInt8>

    /// Creates a reader over `count` bytes followed by ``padding`` readable bytes.
    ///
    /// - Parameters:
    ///   - start: The first byte of the stream.
    ///   - count: The number of bytes in the stream, not counting the padding.
    ///   - pauseMargin: For input that continues beyond these bytes: how many bytes before
    ///     the end ``isPastPauseLimit`` becomes true. `nil` (the default) for complete input.
    init(start: UnsafePointer<UInt8>, count: Int, pauseMargin: Int? = nil) {
        self.start = start
        position = start
        end = start + count
        refillLimit = end + (Self.padding - 8)
        let end = start + count
        if let pauseMargin {
            pauseLimit = end - pauseMargin
        } else {
            pauseLimit = end + (Self.padding - 8)
        }
        threeRefillLimit = pauseLimit - 14
    }

    /// The bits consumed since the start.
    var consumedBitCount: Int {
        (position - start) &* 8 &- bitCount
    }

    /// The bits of the stream not consumed yet (negative once the padding is read).
    var remainingBitCount: Int {
        (end - start) &* 8 &- consumedBitCount
    }

    /// Whether bytes remain that zlib, which takes a byte only when it needs its bits, would not
    /// have taken yet for the bits consumed so far.
    var hasUntakenBytes: Bool {
        (consumedBitCount &+ 7) &>> 3 < end - start
    }

    /// Whether the next refill may need bytes beyond the pause margin (or, for complete input,
    /// beyond the padding, when ``refill()`` would throw).
    @inline(__always)
    var isPastPauseLimit: Bool {
        position > pauseLimit
    }

    /// Whether three refills in a row may follow without ``refill()``'s check: the input has not
    /// reached its pause limit (nor will after two of them), nor, for complete input,
    /// the end of the padding.
    @inline(__always)
    var hasRoomForThreeRefills: Bool {
        position <= threeRefillLimit
    }

    /// Whether more bits were consumed than the stream holds (they came from the padding).
    var isOverrun: Bool {
        (position - start) &* 8 &- bitCount > (end - start) &* 8
    }

    /// Fills the buffer to at least 56 bits.
    ///
    /// - Throws: ``InflateError/truncated`` once the buffer would need bytes beyond the padding,
    ///   which only happens after the stream's real bits are all consumed.
    @inline(__always)
    mutating func refill() throws(InflateError) {
        if position > refillLimit { throw .truncated }
        refillWithinLimit()
    }

    /// ``refill()`` where the caller knows the position is within ``refillLimit``
    /// (see ``hasRoomForThreeRefills``).
    @inline(__always)
    mutating func refillWithinLimit() {
        let word = UInt64(littleEndian: UnsafeRawPointer(position).loadUnaligned(as: UInt64.self))
        bits |= word &<< UInt64(truncatingIfNeeded: bitCount)
        // Advance by the whole bytes that fit; the bits of the next, partial byte are in the
        // buffer too, but will be loaded again (identically) by the next refill.
        position += (63 &- bitCount) &>> 3
        bitCount |= 56
    }

    /// The next `count` bits without consuming them; `count` must be at most ``bitCount``.
    @inline(__always)
    func peek(_ count: Int) -> Int {
        Int(truncatingIfNeeded: bits & ((1 &<< UInt64(truncatingIfNeeded: count)) &- 1))
    }

    /// Drops `count` bits; `count` must be at most ``bitCount``.
    @inline(__always)
    mutating func consume(_ count: Int) {
        bits &>>= UInt64(truncatingIfNeeded: count)
        bitCount &-= count
    }

    /// Drops the code (and extra bits) a ``HuffmanTable`` entry covers: the count in its low
    /// 5 bits, which a 64-bit shift reads directly; bit 5 is always 0.
    @inline(__always)
    mutating func consume(entry: UInt32) {
        bits &>>= UInt64(truncatingIfNeeded: entry)
        bitCount &-= Int(entry & 0x1F)
    }

    /// Reads and consumes `count` bits, refilling first if needed; `count` must be at most 56.
    ///
    /// - Throws: ``InflateError/truncated`` past the end of the padding.
    @inline(__always)
    mutating func read(_ count: Int) throws(InflateError) -> Int {
        if bitCount < count { try refill() }
        let value = peek(count)
        consume(count)
        return value
    }

    /// Skips to the next byte boundary and takes the `count` bytes there, as a stored block and
    /// the Adler-32 checksum are read.
    ///
    /// - Parameter count: The number of bytes to take.
    /// - Returns: The first of the `count` bytes.
    /// - Throws: ``InflateError/truncated`` if the stream has fewer than `count` bytes left.
    mutating func takeAlignedBytes(_ count: Int) throws(InflateError) -> UnsafePointer<UInt8> {
        let next = position - (bitCount &>> 3)
        guard end - next >= count else { throw .truncated }
        position = next + count
        bits = 0
        bitCount = 0
        return next
    }
}

/// Reads the entropy-coded data of a scan: removes the `00` stuffed after `FF` bytes, stops at
/// the first marker, and hands out bits from a left-aligned 64-bit buffer.
///
/// Past a marker or the end of the file it supplies zero bits, as libjpeg does, but counts them:
/// ``consumedPadding`` tells the decoder the data was too short (a truncated file is an error,
/// not a gray-padded image). Every read stays inside `0..<count` of the file, checked per byte
/// on refill, never per bit.
struct JPEGBitReader {
    /// The whole file.
    let bytes: UnsafePointer<UInt8>
    /// The file's length.
    let count: Int
    /// The next byte to load into the buffer; at a marker's `FF` once ``atMarker`` is set.
    private(set) var position: Int
    /// The unread bits, left-aligned: the next bit is bit 63.
    private(set) var buffer: UInt64 = 0
    /// The number of valid bits in ``buffer`` (padding included).
    private(set) var bitCount = 0
    /// Zero bits appended after the data ended.
    private var paddingBits = 0
    /// Whether loading stopped at a marker or the end of the file.
    private(set) var atMarker = false
    /// Whether bits that are no code decode as symbol 0 (libjpeg-turbo's recovery) instead of -1.
    var substitutesInvalidCodes = false
    /// Whether an invalid code was met and replaced by symbol 0.
    private(set) var metInvalidCode = false

    init(bytes: UnsafePointer<UInt8>, count: Int, position: Int) {
        self.bytes = bytes
        self.count = count
        self.position = position
    }

    /// Whether more bits were consumed than the data held.
    var consumedPadding: Bool { paddingBits > bitCount }

    /// Loads bytes until the buffer holds at least 56 bits (and at most 63, so that a shift by the
    /// count stays below 64).
    @inline(__always)
    mutating func refill() {
        // Fast path: eight plain bytes at once when none of them is FF.
        if !atMarker && position + 8 <= count {
            let word = UInt64(bigEndian: UnsafeRawPointer(bytes + position).loadUnaligned(as: UInt64.self))
            if !Self.containsFF(word) {
                Self.append(word, to: &buffer, &bitCount, &position)
                return
            }
        }
        while bitCount < 56 {
            buffer |= UInt64(nextByte()) &<< UInt64(truncatingIfNeeded: 56 &- bitCount)
            bitCount &+= 8
        }
    }

    /// Whether a byte of `word` is `FF`: it has all bits set, so the classic has-zero-byte test
    /// on `~word` finds it.
    @inline(__always)
    private static func containsFF(_ word: UInt64) -> Bool {
        let inverted = ~word
        return (inverted &- 0x0101_0101_0101_0101) & ~inverted & 0x8080_8080_8080_8080 != 0
    }

    /// Appends the whole bytes of `word` (the next eight data bytes, big-endian) that fit below
    /// `bitCount` (0...63), which ends at 56...63.
    ///
    /// The bits of a byte that fits only in part land below the count too: they are the data's
    /// next bits, so the refill that appends that byte whole sets them again to the same values.
    @inline(__always)
    private static func append(_ word: UInt64, to buffer: inout UInt64, _ bitCount: inout Int, _ position: inout Int) {
        buffer |= word &>> UInt64(truncatingIfNeeded: bitCount)
        position &+= (63 &- bitCount) &>> 3
        bitCount |= 56
    }

    /// The next data byte, or 0 past the data.
    @inline(__always)
    private mutating func nextByte() -> UInt8 {
        guard !atMarker, position < count else {
            atMarker = true
            paddingBits += 8
            return 0
        }
        let byte = bytes[position]
        if byte != 0xFF {
            position += 1
            return byte
        }
        // FF: skip fill FFs; FF 00 is a data FF, anything else a marker.
        var next = position + 1
        while next < count && bytes[next] == 0xFF { next += 1 }
        if next < count && bytes[next] == 0 {
            position = next + 1
            return 0xFF
        }
        position = next - 1
        atMarker = true
        paddingBits += 8
        return 0
    }

    /// The next `length` bits (1...16) without consuming them; needs `bitCount >= length`.
    ///
    /// Here and in ``skip(_:)`` the shifts are masking and the count wrapping: the lengths keep
    /// every shift below 64 and the count non-negative (a refill leaves at least 56 bits), and
    /// the checked forms put a compare and a conditional move on the buffer's dependency chain.
    @inline(__always)
    func peek(_ length: Int) -> Int {
        Int(truncatingIfNeeded: buffer &>> UInt64(truncatingIfNeeded: 64 &- length))
    }

    /// Consumes `length` bits (0...32).
    @inline(__always)
    mutating func skip(_ length: Int) {
        buffer = buffer &<< UInt64(truncatingIfNeeded: length)
        bitCount &-= length
    }

    /// Reads one bit.
    @inline(__always)
    mutating func bit() -> Int {
        if bitCount < 1 { refill() }
        let value = Int(truncatingIfNeeded: buffer &>> 63)
        skip(1)
        return value
    }

    /// Reads `length` bits (0...16) and sign-extends them as T.81 F.2.2.1 EXTEND does.
    @inline(__always)
    mutating func signedValue(_ length: Int) -> Int {
        guard length > 0 else { return 0 }
        if bitCount < length { refill() }
        let value = peek(length)
        skip(length)
        return value < (1 &<< (length &- 1)) ? value &- (1 &<< length) &+ 1 : value
    }

    /// Decodes one Huffman symbol.
    ///
    /// - Returns: The symbol, or -1 for a bit pattern that is no code of the table (0 when
    ///   ``substitutesInvalidCodes`` is set).
    @inline(__always)
    mutating func decode(_ table: JPEGHuffmanTable.Pointers) -> Int {
        if bitCount < 16 { refill() }
        let entry = table.lookup[peek(JPEGHuffmanTable.lookupBits)]
        if entry != 0 {
            skip(Int(entry >> 8))
            return Int(entry & 0xFF)
        }
        return decodeLong(table)
    }

    /// Decodes one Huffman symbol.
    @inline(__always)
    mutating func decode(_ table: JPEGHuffmanTable) -> Int {
        decode(table.pointers)
    }

    /// Decodes a code longer than the lookup table resolves.
    @inline(never)
    mutating func decodeLong(_ table: JPEGHuffmanTable.Pointers) -> Int {
        var length = JPEGHuffmanTable.lookupBits + 1
        while length <= 16 {
            let code = Int32(peek(length))
            if code <= table.maximumCode[length] {
                skip(length)
                return Int(table.symbols[Int(code + table.valueOffset[length])])
            }
            length += 1
        }
        return substitutesInvalidCodes ? substituteInvalidCode() : -1
    }

    /// Replaces a bit pattern that is no code, as libjpeg-turbo does (`jpeg_huff_decode` and the
    /// fast path of `jdhuff.c`): it reads on to the 17th bit before giving up, consumes all 17
    /// and takes symbol 0, a zero DC difference or the end of the block's band.
    ///
    /// - Returns: 0.
    @inline(never)
    private mutating func substituteInvalidCode() -> Int {
        if bitCount < 17 { refill() }
        skip(17)
        metInvalidCode = true
        return 0
    }

    /// Moves past the restart marker `RSTn` that must come next, dropping the bits left in the
    /// buffer (the encoder's padding).
    ///
    /// - Returns: `false` if the next marker is not `RST<expected>`.
    mutating func restart(expected: Int) -> (found: UInt8?, ok: Bool) {
        buffer = 0
        bitCount = 0
        paddingBits = 0
        if !atMarker {
            // Skip leftover data up to the marker, as libjpeg does (with a warning).
            while position < count {
                if bytes[position] == 0xFF, position + 1 < count, bytes[position + 1] != 0, bytes[position + 1] != 0xFF
                {
                    break
                }
                position += 1
            }
        }
        while position < count && bytes[position] == 0xFF { position += 1 }
        guard position < count else { return (nil, false) }
        let marker = bytes[position]
        guard marker == 0xD0 + UInt8(expected) else { return (marker, false) }
        position += 1
        atMarker = false
        return (marker, true)
    }

    /// Moves past the restart marker `RST<expected>` that should come next, recovering as
    /// libjpeg's `jpeg_resync_to_restart` does when another marker is found there.
    ///
    /// The bits left in the buffer are dropped, as for a valid restart. The end of the file
    /// counts as an EOI marker, the marker libjpeg's file source inserts there. A marker `M`
    /// found instead of `RST<expected>` is handled by these rules:
    ///
    /// | marker `M`                                   | action                                   |
    /// |----------------------------------------------|------------------------------------------|
    /// | `RST<expected>`, or an RST 3 or more away    | skip it; the data after it is decoded    |
    /// | `RST<expected + 1>`, `RST<expected + 2>`     | leave it unread; this interval is empty  |
    /// | any other valid marker (`C0`...`FE`)         | leave it unread; this interval is empty  |
    /// | `RST<expected - 1>`, `RST<expected - 2>`     | skip to the next marker and decide again |
    /// | an invalid marker (below `C0`)               | skip to the next marker and decide again |
    ///
    /// A marker left unread makes the reader supply zero bits, so the next MCU decodes from zeros
    /// and counts as running out of data.
    ///
    /// - Returns: The first marker found (`nil` at the end of the file), the offset of its code
    ///   byte (the file's length at its end), and whether the reader stands after a restart
    ///   marker with data to decode.
    mutating func resynchronize(expected: Int) -> (found: UInt8?, offset: Int, resumed: Bool) {
        buffer = 0
        bitCount = 0
        paddingBits = 0
        let first = nextMarkerCode()
        let firstOffset = position
        var found = first
        while let marker = found {
            let distance = (Int(marker) - 0xD0 - expected) & 7
            let isRestart = (0xD0...0xD7).contains(marker)
            if marker < 0xC0 || (isRestart && (distance == 6 || distance == 7)) {
                // An invalid marker, or a restart already passed: look further.
                position += 1
                found = nextMarkerCode()
            } else if !isRestart || distance == 1 || distance == 2 {
                // Left for the marker parser (or the next restart) to read: back to its FF.
                position -= 1
                atMarker = true
                return (first, firstOffset, false)
            } else {
                position += 1
                atMarker = false
                return (first, firstOffset, true)
            }
        }
        // libjpeg's file source turns the end of the file into EOI, a marker it keeps.
        position = count
        atMarker = true
        return (first, firstOffset, false)
    }

    /// Positions the reader on the code byte of the next marker (skipping data, fill bytes and
    /// stuffed `FF 00`) and returns it, or `nil` at the end of the file.
    private mutating func nextMarkerCode() -> UInt8? {
        guard let codeIndex = JPEGSegmentReader.markerCodeIndex(in: bytes, count: count, from: position) else {
            position = count
            return nil
        }
        position = codeIndex
        return bytes[codeIndex]
    }

    /// Where the marker parser resumes after the scan: at the marker that stopped the data.
    var resumePosition: Int { position }
}

extension JPEGBitReader {
    /// The top ``JPEGHuffmanTable/lookupBits`` bits of a bit buffer held in local variables: the
    /// index of the lookup entry of the code that starts it.
    @inline(__always)
    static func lookupPrefix(_ buffer: UInt64) -> Int {
        Int(truncatingIfNeeded: buffer >> UInt64(64 - JPEGHuffmanTable.lookupBits))
    }

    /// Drops the top `length` bits (0...63) of a bit buffer held in local variables.
    @inline(__always)
    static func consume(_ length: Int, _ buffer: inout UInt64, _ bitCount: inout Int) {
        buffer = buffer &<< UInt64(truncatingIfNeeded: length)
        bitCount &-= length
    }

    /// Takes the top `length` bits (0...15) of a bit buffer held in local variables, as an
    /// unsigned number; 0 for length 0.
    @inline(__always)
    static func take(_ length: Int, _ buffer: inout UInt64, _ bitCount: inout Int) -> Int {
        // A rotation brings the top `length` bits down, and none for length 0, with no branch.
        let rotated =
            buffer &<< UInt64(truncatingIfNeeded: length) | buffer &>> UInt64(truncatingIfNeeded: 64 &- length)
        let bits = Int(truncatingIfNeeded: rotated) & ((1 &<< length) &- 1)
        consume(length, &buffer, &bitCount)
        return bits
    }

    /// Decodes the symbol whose code starts a bit buffer held in local variables, given the
    /// lookup entry of its prefix: the entry alone for most codes, ``decodeLong(_:_:_:_:)`` for
    /// longer ones.
    ///
    /// - Returns: The symbol, or -1 for bits that are no code.
    @inline(__always)
    mutating func decodeSymbol(
        entry: UInt16, _ table: JPEGHuffmanTable.Pointers, _ buffer: inout UInt64, _ bitCount: inout Int,
        _ position: inout Int
    ) -> Int {
        if entry != 0 {
            Self.consume(Int(entry >> 8), &buffer, &bitCount)
            return Int(entry & 0xFF)
        }
        let symbol: Int
        (symbol, buffer, bitCount, position) = decodeLong(table, buffer, bitCount, position)
        return symbol
    }

    /// ``refill()`` for state held in local variables: eight bytes at once when none is `FF`,
    /// else ``refill()`` itself on the state written back. Either way the buffer then holds 56
    /// to 63 bits.
    @inline(__always)
    mutating func refill(_ buffer: inout UInt64, _ bitCount: inout Int, _ position: inout Int) {
        if !atMarker && position &+ 8 <= count {
            let word = UInt64(bigEndian: UnsafeRawPointer(bytes + position).loadUnaligned(as: UInt64.self))
            if !Self.containsFF(word) {
                Self.append(word, to: &buffer, &bitCount, &position)
                return
            }
        }
        (buffer, bitCount, position) = refillThroughSelf(buffer, bitCount, position)
    }

    /// The rare part of ``refill(_:_:_:)``, out of line so that the common part is inlined;
    /// values in and out rather than `inout`, so that the caller's state never needs an address
    /// and stays in registers.
    @inline(never)
    private mutating func refillThroughSelf(
        _ buffer: UInt64, _ bitCount: Int, _ position: Int
    ) -> (buffer: UInt64, bitCount: Int, position: Int) {
        self.buffer = buffer
        self.bitCount = bitCount
        self.position = position
        refill()
        return (self.buffer, self.bitCount, self.position)
    }

    /// Takes back the state a block decoder held in local variables.
    @inline(__always)
    mutating func store(_ buffer: UInt64, _ bitCount: Int, _ position: Int) {
        self.buffer = buffer
        self.bitCount = bitCount
        self.position = position
    }

    /// ``decodeLong(_:)`` for state held in local variables, passed as values like
    /// ``refillThroughSelf(_:_:_:)``.
    @inline(never)
    mutating func decodeLong(
        _ table: JPEGHuffmanTable.Pointers, _ buffer: UInt64, _ bitCount: Int, _ position: Int
    ) -> (symbol: Int, buffer: UInt64, bitCount: Int, position: Int) {
        self.buffer = buffer
        self.bitCount = bitCount
        self.position = position
        let symbol = decodeLong(table)
        return (symbol, self.buffer, self.bitCount, self.position)
    }
}

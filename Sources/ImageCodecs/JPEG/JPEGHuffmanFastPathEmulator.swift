/// Decodes the MCUs of a sequential scan without restart intervals exactly as libjpeg-turbo 2.1.5
/// does (jdhuff.c `decode_mcu`), for damaged data where its two Huffman decoders disagree.
///
/// libjpeg-turbo decodes an MCU with its fast decoder (`decode_mcu_fast`) while its source's
/// 4096-byte buffer (djpeg's stdio source) holds at least 512 bytes per block of the MCU and no
/// marker was met. The fast decoder reads 6 bytes at a time and takes `FF` followed by anything
/// but `00` for a marker, after which it reads zero bits; when it met one, libjpeg decodes the MCU
/// again with its slow decoder, over the blocks the fast one wrote, without clearing them. Where
/// the slow decoder reads `FF FF 00` as a data `FF` (fill bytes before a stuffed zero), the two
/// read different bits: the coefficients only the fast pass wrote stay in the blocks.
/// ``JPEGBitReader`` reads as the slow decoder, so this type is used only for scans holding
/// such a sequence (``isNeeded(bytes:count:from:)``); it is not fast.
struct JPEGHuffmanFastPathEmulator {
    /// libjpeg-turbo's stdio source reads the file in chunks of this many bytes.
    private static let sourceBufferSize = 4096
    /// The slow decoder fills its bit buffer to at least this many bits (`MIN_GET_BITS`).
    private static let fillTarget = 57

    private let bytes: UnsafePointer<UInt8>
    private let count: Int
    /// The bit buffer: the next bit is bit `bitsLeft - 1`; higher bits are stale.
    private var buffer: UInt64 = 0
    private var bitsLeft = 0
    /// The next byte to load (libjpeg's `next_input_byte`).
    private var position: Int
    /// Where the marker that ended the data is (its first `FF`), once the slow decoder met it.
    private var markerPosition: Int?
    /// The DC predictions of the scan members.
    private var previousDC: [Int]
    /// libjpeg's `insufficient_data`: bits past the marker were needed; later MCUs are skipped.
    private(set) var outOfData = false
    /// Whether an invalid code was met (replaced by symbol 0, as libjpeg does).
    private(set) var metInvalidCode = false

    init(bytes: UnsafePointer<UInt8>, count: Int, position: Int, memberCount: Int) {
        self.bytes = bytes
        self.count = count
        self.position = position
        previousDC = Array(repeating: 0, count: memberCount)
    }

    /// Where the marker parser resumes after the scan: at the marker that stopped the data, or
    /// at the first byte libjpeg did not read.
    var resumePosition: Int { markerPosition ?? position }

    /// Whether the scan data from `start` to its first marker holds `FF FF` followed, after any
    /// more `FF`s, by `00`: the only bytes the two decoders of libjpeg-turbo read differently.
    static func isNeeded(bytes: UnsafePointer<UInt8>, count: Int, from start: Int) -> Bool {
        /// The bytes of `word` (little-endian) equal to FF have their top bit set, and maybe
        /// bytes above the first such one: the lowest flagged byte is the first FF.
        @inline(__always) func flaggedFF(_ offset: Int) -> UInt64 {
            let inverted = ~UInt64(littleEndian: UnsafeRawPointer(bytes + offset).loadUnaligned(as: UInt64.self))
            return (inverted &- 0x0101_0101_0101_0101) & ~inverted & 0x8080_8080_8080_8080
        }
        var index = start
        while index + 1 < count {
            // Every file is checked (in the default mode): sixteen bytes at a time, straight to
            // the first FF among them.
            if index + 16 <= count {
                let (low, high) = (flaggedFF(index), flaggedFF(index + 8))
                if low | high == 0 {
                    index += 16
                    continue
                }
                index += low != 0 ? low.trailingZeroBitCount >> 3 : 8 + high.trailingZeroBitCount >> 3
            } else if bytes[index] != 0xFF {
                index += 1
                continue
            }
            var next = index + 1
            guard next < count else { return false }
            if bytes[next] == 0 {
                index = next + 1
                continue
            }
            guard bytes[next] == 0xFF else { return false }
            while next < count && bytes[next] == 0xFF { next += 1 }
            return next < count && bytes[next] == 0
        }
        return false
    }

    /// Decodes one MCU into `blocks` (one per block, in scan order), `members[i]` giving the scan
    /// member of block `i` and `tables` the DC and AC tables of each member.
    mutating func decodeMCU(
        blocks: [UnsafeMutablePointer<Int16>], members: [Int],
        tables: [(dc: JPEGHuffmanTable.Pointers, ac: JPEGHuffmanTable.Pointers)]
    ) {
        guard !outOfData else { return }
        if markerPosition == nil && bytesInSourceBuffer >= 512 * blocks.count {
            var fast = self
            if fast.decodeFast(blocks: blocks, members: members, tables: tables) {
                self = fast
                return
            }
        }
        for (block, member) in zip(blocks, members) {
            decodeBlock(block, member: member, tables: tables[member], fast: false)
        }
    }

    /// The bytes left in libjpeg's source buffer: the rest of the current 4096-byte chunk, none
    /// once it is used up (the next chunk is read only when a byte is needed).
    private var bytesInSourceBuffer: Int {
        guard position < count, position % Self.sourceBufferSize != 0 else { return 0 }
        return min(count, (position / Self.sourceBufferSize + 1) * Self.sourceBufferSize) - position
    }

    /// The fast decoder's pass; `false` if it met a marker (the caller decodes the MCU again).
    private mutating func decodeFast(
        blocks: [UnsafeMutablePointer<Int16>], members: [Int],
        tables: [(dc: JPEGHuffmanTable.Pointers, ac: JPEGHuffmanTable.Pointers)]
    ) -> Bool {
        var metMarker = false
        for (block, member) in zip(blocks, members) {
            metMarker = decodeBlock(block, member: member, tables: tables[member], fast: true) || metMarker
        }
        return !metMarker
    }

    /// Decodes one block; returns whether the fast decoder met a marker.
    @discardableResult
    private mutating func decodeBlock(
        _ block: UnsafeMutablePointer<Int16>, member: Int,
        tables: (dc: JPEGHuffmanTable.Pointers, ac: JPEGHuffmanTable.Pointers), fast: Bool
    ) -> Bool {
        var metMarker = false
        let size = symbol(tables.dc, fast: fast, metMarker: &metMarker)
        let difference = value(size, fast: fast, metMarker: &metMarker)
        // libjpeg keeps the prediction in an int and stores it as a 16-bit coefficient.
        previousDC[member] = Int(Int32(truncatingIfNeeded: previousDC[member] &+ difference))
        block[0] = Int16(truncatingIfNeeded: previousDC[member])
        var index = 1
        while index < 64 {
            let runSize = symbol(tables.ac, fast: fast, metMarker: &metMarker)
            let run = runSize >> 4
            let size = runSize & 15
            if size != 0 {
                index += run
                block[jpegNaturalOrder[index]] = Int16(
                    truncatingIfNeeded: value(size, fast: fast, metMarker: &metMarker))
            } else {
                if run != 15 { break }
                index += 15
            }
            index += 1
        }
        return metMarker
    }

    /// Reads `size` bits as a coefficient value (T.81 F.2.2.1 EXTEND).
    private mutating func value(_ size: Int, fast: Bool, metMarker: inout Bool) -> Int {
        guard size > 0 else { return 0 }
        if fast {
            fillFast(metMarker: &metMarker)
        } else if bitsLeft < size {
            fill(needing: size)
        }
        let bits = take(size)
        return bits < (1 << (size - 1)) ? bits - (1 << size) + 1 : bits
    }

    /// Decodes one Huffman symbol; an invalid code reads 17 bits and gives symbol 0.
    private mutating func symbol(
        _ table: JPEGHuffmanTable.Pointers, fast: Bool, metMarker: inout Bool
    ) -> Int {
        // Codes of up to 8 bits are looked up in the next 8 bits when the buffer holds them
        // (libjpeg's HUFF_LOOKAHEAD); otherwise the code is read bit by bit, with a fill before
        // each read that lacks bits.
        var length = 9
        if fast {
            fillFast(metMarker: &metMarker)
        } else if bitsLeft < 8 {
            fill(needing: 0)
            if bitsLeft < 8 { length = 1 }
        }
        if length == 9 {
            let prefix = Int32(truncatingIfNeeded: (buffer >> UInt64(bitsLeft - 8)) & 0xFF)
            for short in 1...8 where prefix >> (8 - short) <= table.maximumCode[short] {
                let code = prefix >> (8 - short)
                bitsLeft -= short
                return Int(table.symbols[Int(code + table.valueOffset[short])])
            }
        }
        if !fast && bitsLeft < length { fill(needing: length) }
        var code = Int32(take(length))
        while length <= 16 && code > table.maximumCode[length] {
            if !fast && bitsLeft < 1 { fill(needing: 1) }
            code = code << 1 | Int32(take(1))
            length += 1
        }
        guard length <= 16 else {
            metInvalidCode = true
            return 0
        }
        return Int(table.symbols[Int(code + table.valueOffset[length])])
    }

    /// Consumes `length` bits (1...16).
    private mutating func take(_ length: Int) -> Int {
        bitsLeft -= length
        return Int(truncatingIfNeeded: (buffer >> UInt64(bitsLeft)) & ((1 << UInt64(length)) - 1))
    }

    /// The fast decoder's refill: six bytes when 16 bits or fewer are left. `FF` followed by
    /// anything but `00` counts as a marker: it is not consumed and reads as zero bits.
    private mutating func fillFast(metMarker: inout Bool) {
        guard bitsLeft <= 16 else { return }
        for _ in 0..<6 {
            // The caller checked that 512 bytes per block are left in the file.
            let byte = bytes[position]
            buffer = buffer << 8 | UInt64(byte)
            bitsLeft += 8
            guard byte == 0xFF else {
                position += 1
                continue
            }
            if position + 1 < count && bytes[position + 1] == 0 {
                position += 2
            } else {
                metMarker = true
                buffer &= ~0xFF
            }
        }
    }

    /// The slow decoder's refill: bytes up to ``fillTarget`` bits, stopping at a marker (or the
    /// end of the file, where libjpeg's source supplies an EOI); zero bits once a marker was met
    /// and `needing` bits are not there.
    private mutating func fill(needing: Int) {
        while markerPosition == nil && bitsLeft < Self.fillTarget {
            guard position < count else {
                markerPosition = count
                break
            }
            var byte = bytes[position]
            if byte == 0xFF {
                var next = position + 1
                while next < count && bytes[next] == 0xFF { next += 1 }
                guard next < count && bytes[next] == 0 else {
                    markerPosition = position
                    position = next
                    break
                }
                position = next
                byte = 0xFF
            }
            position += 1
            buffer = buffer << 8 | UInt64(byte)
            bitsLeft += 8
        }
        if markerPosition != nil && needing > bitsLeft {
            outOfData = true
            buffer <<= UInt64(Self.fillTarget - bitsLeft)
            bitsLeft = Self.fillTarget
        }
    }
}

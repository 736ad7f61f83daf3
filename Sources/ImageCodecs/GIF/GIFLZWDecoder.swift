/// GIF's variable-length LZW: codes of 2…12 bits, least significant bit first, decoded straight
/// into a frame's index buffer.
///
/// Every string in the table is already in the output: a new entry is the previous code's string
/// plus the first byte of the string written right after it. So an entry is only *where* its
/// string starts in this frame's output and how long it is, and decoding a code is a forward copy
/// of earlier output, eight bytes at a time — no prefix chain walked back to front. Behaviour on
/// the edges, as giflib and browsers decode:
///
/// | input                                   | decoding                                        |
/// |-----------------------------------------|-------------------------------------------------|
/// | a clear code anywhere                   | the table and the code size start over          |
/// | 4096 entries, no clear code             | the table is frozen at 12-bit codes, decoding goes on (deferred clear) |
/// | a code equal to the next free entry     | the previous string plus its own first byte (KwKwK) |
/// | a code beyond the next free entry, or not a literal right after a clear | damage: decoding stops there |
/// | end-of-information, or the output full  | done: any data after it is ignored              |
///
/// The code size grows when the next free entry reaches the current code size's range, checked
/// after every code as giflib does; with a minimum code size of 1 that happens after the first.
struct GIFLZWDecoder {
    /// How a decode ended.
    enum Outcome: Equatable {
        /// End-of-information, or the output filled.
        case finished
        /// The data ran out before end-of-information and before the output filled.
        case endOfData
        /// A code beyond the next free entry.
        case codeBeyondTable(code: Int, nextFree: Int)
    }

    /// The bytes past a buffer's end the decoder may load (never use): the caller allocates them.
    static let inputSlack = 16

    private static let maximumCodes = 4096

    /// Decodes `count` bytes of LZW data at `input` (followed by ``inputSlack`` readable bytes)
    /// into `output`, stopping when it is full.
    ///
    /// - Parameter minimumCodeSize: 1…8.
    /// - Returns: The bytes written and how the decode ended.
    func decode(
        _ input: UnsafeRawPointer, count: Int, minimumCodeSize: Int, into output: UnsafeMutableBufferPointer<UInt8>
    ) -> (written: Int, outcome: Outcome) {
        precondition((1...8).contains(minimumCodeSize), "the minimum code size is 1…8")
        precondition(output.count <= 1 << 32, "string positions are 32-bit")
        guard let out = output.baseAddress, !output.isEmpty else { return (0, .finished) }
        // Per code: where its string starts in the output (low 32 bits) and its length (high
        // 32); written before read, since roots never use the table. On the stack: a frame of a
        // few pixels must not pay for a heap allocation.
        return withUnsafeTemporaryAllocation(of: UInt64.self, capacity: Self.maximumCodes) { entries in
            // A temporary allocation of 4096 elements has a base address.
            decode(
                input, count: count, minimumCodeSize: minimumCodeSize, into: out, capacity: output.count,
                entries: entries.baseAddress!)
        }
    }

    private func decode(
        _ input: UnsafeRawPointer, count: Int, minimumCodeSize: Int, into out: UnsafeMutablePointer<UInt8>,
        capacity: Int, entries: UnsafeMutablePointer<UInt64>
    ) -> (written: Int, outcome: Outcome) {
        let clear = 1 << minimumCodeSize
        let endOfInformation = clear + 1

        var codeSize = minimumCodeSize + 1
        var codeMask = (1 << codeSize) - 1
        var nextFree = clear + 2
        // The previous code's string in the output; a length of 0 right after a clear, when the
        // next code must be a literal and defines no entry.
        var previousStart = 0
        var previousLength = 0
        var written = 0
        var bitBuffer: UInt64 = 0
        var bufferedBits = 0
        var inputOffset = 0
        // Bits of real data not yet taken as codes: the slack past `count` is loaded, never used.
        var bitsLeft = count * 8

        while true {
            guard bitsLeft >= codeSize else { return (written, .endOfData) }
            if bufferedBits < codeSize {
                // bitsLeft ≥ codeSize puts `inputOffset` at most 1 past `count`, so the 8-byte
                // load stays inside the slack.
                let word = UInt64(littleEndian: input.loadUnaligned(fromByteOffset: inputOffset, as: UInt64.self))
                bitBuffer |= word << UInt64(bufferedBits)
                inputOffset &+= (63 &- bufferedBits) >> 3
                bufferedBits |= 56
            }
            let code = Int(truncatingIfNeeded: bitBuffer) & codeMask
            bitBuffer >>= UInt64(codeSize)
            bufferedBits &-= codeSize
            bitsLeft &-= codeSize

            let start: Int
            let length: Int
            if code < clear {
                start = -1
                length = 1
            } else if code > endOfInformation && code < nextFree && previousLength > 0 {
                let entry = entries[code]
                start = Int(truncatingIfNeeded: entry & 0xFFFF_FFFF)
                length = Int(truncatingIfNeeded: entry >> 32)
            } else if code == clear {
                codeSize = minimumCodeSize + 1
                codeMask = (1 << codeSize) - 1
                nextFree = clear + 2
                previousLength = 0
                continue
            } else if code == endOfInformation {
                return (written, .finished)
            } else if code == nextFree && previousLength > 0 {
                // KwKwK: the previous string and its own first byte — the bytes already written
                // from the previous string's start.
                start = previousStart
                length = previousLength &+ 1
            } else {
                return (written, .codeBeyondTable(code: code, nextFree: nextFree))
            }

            let room = capacity &- written
            let distance = written &- start
            if start < 0 {
                out[written] = UInt8(truncatingIfNeeded: code)
            } else if length &+ 8 <= room && distance >= 8 {
                // Eight bytes at a time: the source ends at least eight bytes before each chunk
                // is written, and the output has room for the last chunk's overshoot.
                var from = UnsafeRawPointer(out + start)
                var to = UnsafeMutableRawPointer(out + written)
                let last = to + length
                repeat {
                    to.storeBytes(of: from.loadUnaligned(as: UInt64.self), as: UInt64.self)
                    from += 8
                    to += 8
                } while to < last
            } else if length &+ 8 <= room {
                // A short string close behind: a table entry's string ends before the output
                // does (length ≤ distance < 8), so one load holds it; KwKwK's one byte more is
                // its own first byte.
                UnsafeMutableRawPointer(out + written).storeBytes(
                    of: UnsafeRawPointer(out + start).loadUnaligned(as: UInt64.self), as: UInt64.self)
                if length > distance { out[written &+ length &- 1] = out[start] }
            } else {
                // Near the end of the output: byte by byte, and only the head of a string that
                // overruns the frame.
                for offset in 0..<min(length, room) {
                    out[written &+ offset] = out[start &+ offset]
                }
                if length >= room { return (capacity, .finished) }
            }

            if previousLength > 0 && nextFree < Self.maximumCodes {
                entries[nextFree] =
                    UInt64(truncatingIfNeeded: previousStart) | UInt64(truncatingIfNeeded: previousLength &+ 1) << 32
                nextFree &+= 1
            }
            // After every code, entry or not: with a minimum code size of 1 the first literal
            // after a clear already widens the codes, as in giflib.
            if nextFree >= 1 << codeSize && codeSize < 12 {
                codeSize &+= 1
                codeMask = (1 << codeSize) &- 1
            }
            previousStart = written
            previousLength = length
            written &+= length
            if written == capacity { return (written, .finished) }
        }
    }
}

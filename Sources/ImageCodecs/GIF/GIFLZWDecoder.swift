/// GIF's variable-length LZW: codes of 2…12 bits, least significant bit first, decoded straight
/// into a frame's index buffer.
///
/// The table keeps, for each code, its prefix code, last byte, first byte and string length, so
/// a code's string is written back to front into the output in one pass, with no stack and no
/// allocation per code. Behaviour on the edges, as giflib and browsers decode:
///
/// | input                                   | decoding                                        |
/// |-----------------------------------------|-------------------------------------------------|
/// | a clear code anywhere                   | the table and the code size start over          |
/// | 4096 entries, no clear code             | the table is frozen at 12-bit codes, decoding goes on (deferred clear) |
/// | a code equal to the next free entry     | the previous string plus its own first byte (KwKwK) |
/// | a code beyond the next free entry       | damage: decoding stops there                    |
/// | end-of-information, or the output full  | done: any data after it is ignored              |
///
/// The code size grows when the next free entry reaches the current code size's range, checked
/// after every code as giflib does; with a minimum code size of 1 that happens after the first.
struct GIFLZWDecoder: ~Copyable {
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

    /// Prefix codes, then last bytes, first bytes and lengths, 4096 of each.
    private let prefixes: UnsafeMutablePointer<UInt16>
    private let suffixes: UnsafeMutablePointer<UInt8>
    private let firstBytes: UnsafeMutablePointer<UInt8>
    private let lengths: UnsafeMutablePointer<UInt16>

    init() {
        prefixes = .allocate(capacity: Self.maximumCodes)
        suffixes = .allocate(capacity: Self.maximumCodes)
        firstBytes = .allocate(capacity: Self.maximumCodes)
        lengths = .allocate(capacity: Self.maximumCodes)
        // Entries past the roots are written before they are read; the roots are set per decode.
        prefixes.initialize(repeating: 0, count: Self.maximumCodes)
        suffixes.initialize(repeating: 0, count: Self.maximumCodes)
        firstBytes.initialize(repeating: 0, count: Self.maximumCodes)
        lengths.initialize(repeating: 1, count: Self.maximumCodes)
    }

    deinit {
        prefixes.deallocate()
        suffixes.deallocate()
        firstBytes.deallocate()
        lengths.deallocate()
    }

    /// Decodes `count` bytes of LZW data at `input` (followed by ``inputSlack`` readable bytes)
    /// into `output`, stopping when it is full.
    ///
    /// - Parameter minimumCodeSize: 1…8.
    /// - Returns: The bytes written and how the decode ended.
    func decode(
        _ input: UnsafeRawPointer, count: Int, minimumCodeSize: Int, into output: UnsafeMutableBufferPointer<UInt8>
    ) -> (written: Int, outcome: Outcome) {
        precondition((1...8).contains(minimumCodeSize), "the minimum code size is 1…8")
        guard let out = output.baseAddress, !output.isEmpty else { return (0, .finished) }
        let capacity = output.count
        let clear = 1 << minimumCodeSize
        let endOfInformation = clear + 1
        for root in 0..<clear {
            suffixes[root] = UInt8(truncatingIfNeeded: root)
            firstBytes[root] = UInt8(truncatingIfNeeded: root)
            lengths[root] = 1
        }

        var codeSize = minimumCodeSize + 1
        var nextFree = clear + 2
        var previous = -1
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
                inputOffset += (63 - bufferedBits) >> 3
                bufferedBits |= 56
            }
            let code = Int(truncatingIfNeeded: bitBuffer) & ((1 << codeSize) - 1)
            bitBuffer >>= UInt64(codeSize)
            bufferedBits -= codeSize
            bitsLeft -= codeSize

            if code == clear {
                codeSize = minimumCodeSize + 1
                nextFree = clear + 2
                previous = -1
                continue
            }
            if code == endOfInformation { return (written, .finished) }

            if previous < 0 {
                guard code < clear else { return (written, .codeBeyondTable(code: code, nextFree: nextFree)) }
                out[written] = UInt8(truncatingIfNeeded: code)
                written += 1
                if written == capacity { return (written, .finished) }
            } else {
                guard code <= nextFree, code < Self.maximumCodes else {
                    return (written, .codeBeyondTable(code: code, nextFree: nextFree))
                }
                if nextFree < Self.maximumCodes {
                    // KwKwK: the code being defined is the previous string plus its first byte.
                    let last = code < nextFree ? firstBytes[code] : firstBytes[previous]
                    prefixes[nextFree] = UInt16(truncatingIfNeeded: previous)
                    suffixes[nextFree] = last
                    firstBytes[nextFree] = firstBytes[previous]
                    lengths[nextFree] = lengths[previous] &+ 1
                    nextFree += 1
                }
                let length = Int(lengths[code])
                if length <= capacity - written {
                    write(code, length: length, endingAt: out + written + length - 1)
                    written += length
                    if written == capacity { return (written, .finished) }
                } else {
                    // The string overruns the frame: only its head fits.
                    var head = code
                    for _ in 0..<(length - (capacity - written)) { head = Int(prefixes[head]) }
                    write(head, length: capacity - written, endingAt: out + capacity - 1)
                    return (capacity, .finished)
                }
            }
            previous = code
            if nextFree >= 1 << codeSize, codeSize < 12 { codeSize += 1 }
        }
    }

    /// Writes the last `length` bytes of `code`'s string, the last at `end`, walking prefixes.
    @inline(__always)
    private func write(_ code: Int, length: Int, endingAt end: UnsafeMutablePointer<UInt8>) {
        var code = code
        var position = end
        for _ in 1..<length {
            position.pointee = suffixes[code]
            code = Int(prefixes[code])
            position -= 1
        }
        position.pointee = suffixes[code]
    }
}

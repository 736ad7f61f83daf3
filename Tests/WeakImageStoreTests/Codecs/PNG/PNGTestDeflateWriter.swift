@testable import WeakImageStore

/// Writes deflate streams bit by bit, so tests can state exactly which blocks, literals and
/// matches (valid or not) a stream holds. Tracks the output a correct inflater must produce.
struct PNGTestDeflateWriter {
    private(set) var bytes: [UInt8] = []
    private var bitBuffer: UInt64 = 0
    private var bitCount = 0
    /// What the symbols written so far decode to (as long as they are valid).
    private(set) var expectedOutput: [UInt8] = []

    /// Appends `count` bits of `value`, least significant first.
    mutating func writeBits(_ value: Int, count: Int) {
        bitBuffer |= UInt64(value & ((1 << count) - 1)) << UInt64(bitCount)
        bitCount += count
        while bitCount >= 8 {
            bytes.append(UInt8(bitBuffer & 0xFF))
            bitBuffer >>= 8
            bitCount -= 8
        }
    }

    /// Appends a Huffman code, most significant bit first as deflate requires.
    mutating func writeCode(_ code: Int, length: Int) {
        var reversed = 0
        for bit in 0..<length where code & (1 << bit) != 0 {
            reversed |= 1 << (length - 1 - bit)
        }
        writeBits(reversed, count: length)
    }

    /// Pads to a byte boundary with zero bits.
    mutating func alignToByte() {
        if bitCount > 0 { writeBits(0, count: 8 - bitCount) }
    }

    /// Starts a fixed-Huffman block.
    mutating func beginFixedBlock(isFinal: Bool) {
        writeBits(isFinal ? 1 : 0, count: 1)
        writeBits(1, count: 2)
    }

    /// Appends a stored block holding `data`.
    mutating func storedBlock(_ data: [UInt8], isFinal: Bool) {
        writeBits(isFinal ? 1 : 0, count: 1)
        writeBits(0, count: 2)
        alignToByte()
        let length = data.count
        bytes += [UInt8(length & 0xFF), UInt8(length >> 8), UInt8(~length & 0xFF), UInt8((~length >> 8) & 0xFF)]
        bytes += data
        expectedOutput += data
    }

    /// Writes a literal/length symbol with the fixed code (RFC 1951, 3.2.6).
    mutating func fixedSymbol(_ symbol: Int) {
        switch symbol {
        case 0...143: writeCode(0x30 + symbol, length: 8)
        case 144...255: writeCode(0x190 + symbol - 144, length: 9)
        case 256...279: writeCode(symbol - 256, length: 7)
        default: writeCode(0xC0 + symbol - 280, length: 8)
        }
    }

    /// Writes a literal byte in a fixed block.
    mutating func literal(_ byte: UInt8) {
        fixedSymbol(Int(byte))
        expectedOutput.append(byte)
    }

    /// Writes the end-of-block symbol in a fixed block.
    mutating func endOfBlock() {
        fixedSymbol(256)
    }

    /// Writes a match in a fixed block; `length` 3...258, `distance` 1...32768.
    mutating func match(length: Int, distance: Int) {
        let (lengthSymbol, lengthBase, lengthExtra) = Self.lengthCode(length)
        fixedSymbol(lengthSymbol)
        writeBits(length - lengthBase, count: lengthExtra)
        let (distanceSymbol, distanceBase, distanceExtra) = Self.distanceCode(distance)
        writeCode(distanceSymbol, length: 5)
        writeBits(distance - distanceBase, count: distanceExtra)
        for _ in 0..<length {
            let index = expectedOutput.count - distance
            expectedOutput.append(index >= 0 ? expectedOutput[index] : 0)
        }
    }

    /// Starts a dynamic-Huffman block whose header lists the given code lengths verbatim, each
    /// coded with a 4-bit code-length code (symbols 0...15, no repeats).
    ///
    /// - Returns: The canonical codes of the literal/length symbols, for ``dynamicSymbol(_:codes:lengths:)``.
    mutating func beginDynamicBlock(isFinal: Bool, literalLengths: [Int], distanceLengths: [Int]) -> [Int] {
        writeBits(isFinal ? 1 : 0, count: 1)
        writeBits(2, count: 2)
        writeBits(literalLengths.count - 257, count: 5)
        writeBits(distanceLengths.count - 1, count: 5)
        writeBits(19 - 4, count: 4)
        let order = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]
        for symbol in order {
            writeBits(symbol < 16 ? 4 : 0, count: 3)
        }
        for length in literalLengths + distanceLengths {
            writeCode(length, length: 4)
        }
        return Self.canonicalCodes(literalLengths)
    }

    /// Writes a literal/length symbol of a dynamic block.
    mutating func dynamicSymbol(_ symbol: Int, codes: [Int], lengths: [Int]) {
        writeCode(codes[symbol], length: lengths[symbol])
        if symbol < 256 { expectedOutput.append(UInt8(symbol)) }
    }

    /// The canonical code of every symbol (RFC 1951, 3.2.2).
    static func canonicalCodes(_ lengths: [Int]) -> [Int] {
        var countPerLength = [Int](repeating: 0, count: 16)
        for length in lengths where length > 0 { countPerLength[length] += 1 }
        var nextCode = [Int](repeating: 0, count: 16)
        var code = 0
        for length in 1..<16 {
            code = (code + countPerLength[length - 1]) << 1
            nextCode[length] = code
        }
        return lengths.map { length in
            guard length > 0 else { return 0 }
            defer { nextCode[length] += 1 }
            return nextCode[length]
        }
    }

    /// Flushes the last partial byte.
    mutating func finish() -> [UInt8] {
        alignToByte()
        return bytes
    }

    /// The zlib stream of `deflate`: header `78 01`, the data, the Adler-32 of `output`.
    static func zlib(_ deflate: [UInt8], adlerOf output: [UInt8]) -> [UInt8] {
        let adler = output.withUnsafeBufferPointer { buffer in
            buffer.baseAddress.map { Adler32.checksum($0, count: buffer.count) } ?? 1
        }
        return [0x78, 0x01] + deflate + PNGTestFiles.bigEndian(adler)
    }

    private static func lengthCode(_ length: Int) -> (symbol: Int, base: Int, extraBits: Int) {
        if length == 258 { return (285, 258, 0) }
        var base = 3
        for symbol in 257...284 {
            let extraBits = symbol < 265 ? 0 : (symbol - 261) / 4
            if length < base + (1 << extraBits) { return (symbol, base, extraBits) }
            base += 1 << extraBits
        }
        return (285, 258, 0)
    }

    private static func distanceCode(_ distance: Int) -> (symbol: Int, base: Int, extraBits: Int) {
        var base = 1
        for symbol in 0..<30 {
            let extraBits = symbol < 4 ? 0 : symbol / 2 - 1
            if distance < base + (1 << extraBits) { return (symbol, base, extraBits) }
            base += 1 << extraBits
        }
        return (29, 24_577, 13)
    }
}

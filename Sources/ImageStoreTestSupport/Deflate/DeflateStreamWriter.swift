/// Writes DEFLATE streams (RFC 1951) symbol by symbol, so tests can state exactly which blocks,
/// literals and matches (valid or not) a stream holds, and tracks the output a correct inflater
/// must produce.
///
/// Nothing is checked: invalid symbols, codes and block types are written as asked, which is how
/// tests make broken streams. Wrap the result with ``ZlibStream/wrap(_:adlerOf:)``.
public struct DeflateStreamWriter {
    private var writer = BitWriter(reservingCapacity: 256)
    /// What the symbols written so far decode to (as long as they are valid).
    public private(set) var expectedOutput: [UInt8] = []

    /// An empty stream.
    public init() {}

    /// Appends the low `count` bits of `value`, least significant first.
    ///
    /// - Parameter count: 0...32.
    public mutating func writeBits(_ value: Int, count: Int) {
        precondition((0...32).contains(count), "0...32 bits at a time")
        writer.write(UInt32(truncatingIfNeeded: value), bitCount: count)
    }

    /// Appends a Huffman code of `length` bits, most significant bit first as DEFLATE stores codes.
    public mutating func writeCode(_ code: Int, length: Int) {
        writer.write(huffmanCode: UInt16(truncatingIfNeeded: code), length: length)
    }

    /// Pads to a byte boundary with zero bits.
    public mutating func alignToByte() {
        writer.alignToByte()
    }

    /// Starts a fixed-Huffman block (RFC 1951, section 3.2.6).
    public mutating func beginFixedBlock(isFinal: Bool) {
        writeBits(isFinal ? 1 : 0, count: 1)
        writeBits(1, count: 2)
    }

    /// Appends a stored block holding `data` (at most 65 535 bytes).
    public mutating func storedBlock(_ data: [UInt8], isFinal: Bool) {
        precondition(data.count <= 65_535, "a stored block holds at most 65535 bytes")
        writeBits(isFinal ? 1 : 0, count: 1)
        writeBits(0, count: 2)
        writer.alignToByte()
        writeBits(data.count, count: 16)
        writeBits(~data.count, count: 16)
        writer.append(contentsOf: data)
        expectedOutput += data
    }

    /// Writes a literal/length symbol with the fixed code; symbols 286 and 287, which no valid
    /// stream holds, get the codes that follow 285's.
    public mutating func fixedSymbol(_ symbol: Int) {
        switch symbol {
        case 0...143: writeCode(0x30 + symbol, length: 8)
        case 144...255: writeCode(0x190 + symbol - 144, length: 9)
        case 256...279: writeCode(symbol - 256, length: 7)
        default: writeCode(0xC0 + symbol - 280, length: 8)
        }
    }

    /// Writes a literal byte in a fixed block.
    public mutating func literal(_ byte: UInt8) {
        fixedSymbol(Int(byte))
        expectedOutput.append(byte)
    }

    /// Writes the end-of-block symbol in a fixed block.
    public mutating func endOfBlock() {
        fixedSymbol(DeflateAlphabet.endOfBlock)
    }

    /// Writes a match in a fixed block.
    ///
    /// - Parameters:
    ///   - length: 3...258.
    ///   - distance: 1...32768; farther back than the output so far is written as asked (and
    ///     expected to copy zeros), so tests can check that an inflater rejects it.
    public mutating func match(length: Int, distance: Int) {
        precondition((3...258).contains(length) && (1...32_768).contains(distance), "a match DEFLATE can code")
        let lengthCode = DeflateAlphabet.lengthCodeOfLength[length]
        fixedSymbol(257 + lengthCode)
        writeBits(length - DeflateAlphabet.lengthBases[lengthCode], count: DeflateAlphabet.lengthExtraBits[lengthCode])
        let distanceCode = DeflateAlphabet.distanceCodeOfDistance[distance]
        writeCode(distanceCode, length: 5)
        writeBits(
            distance - DeflateAlphabet.distanceBases[distanceCode],
            count: DeflateAlphabet.distanceExtraBits[distanceCode])
        for _ in 0..<length {
            let index = expectedOutput.count - distance
            expectedOutput.append(index >= 0 ? expectedOutput[index] : 0)
        }
    }

    /// Starts a dynamic-Huffman block whose header lists the given code lengths verbatim, each
    /// coded with a 4-bit code-length code (symbols 0...15, no repeats).
    ///
    /// - Parameters:
    ///   - literalLengths: 257...286 code lengths of the literal/length alphabet, each 0...15.
    ///   - distanceLengths: 1...32 code lengths of the distance alphabet, each 0...15.
    /// - Returns: The canonical codes of the literal/length symbols, for
    ///   ``dynamicSymbol(_:codes:lengths:)``.
    public mutating func beginDynamicBlock(isFinal: Bool, literalLengths: [Int], distanceLengths: [Int]) -> [Int] {
        writeBits(isFinal ? 1 : 0, count: 1)
        writeBits(2, count: 2)
        writeBits(literalLengths.count - 257, count: 5)
        writeBits(distanceLengths.count - 1, count: 5)
        writeBits(19 - 4, count: 4)
        for symbol in DeflateAlphabet.codeLengthOrder {
            writeBits(symbol < 16 ? 4 : 0, count: 3)
        }
        for length in literalLengths + distanceLengths {
            writeCode(length, length: 4)
        }
        return HuffmanCode(lengths: literalLengths).codes.map(Int.init)
    }

    /// Writes a literal/length symbol of a dynamic block.
    public mutating func dynamicSymbol(_ symbol: Int, codes: [Int], lengths: [Int]) {
        writeCode(codes[symbol], length: lengths[symbol])
        if symbol < 256 { expectedOutput.append(UInt8(symbol)) }
    }

    /// The stream, its last partial byte padded with zero bits.
    public mutating func finish() -> [UInt8] {
        writer.alignToByte()
        return writer.bytes
    }
}

/// Decompresses one zlib stream (RFC 1950) of deflate data (RFC 1951) into a buffer of exactly
/// the size the caller expects, as a PNG decoder knows it from the image header.
///
/// Producing fewer bytes than expected is an error; what happens to more is the caller's choice
/// (``Surplus``). Either way the output never grows and a hostile stream cannot make the decoder
/// allocate. The Adler-32 checksum is verified when the stream holds exactly the expected bytes.
struct Inflater {
    /// Writable bytes the output must have after its end: match copies store 8 bytes at a time
    /// and may run up to 7 bytes past a match, a single literal stores 2 bytes. Unfiltering
    /// relies on the same slack to read a few bytes past the last row.
    static let outputSlack = 16

    /// What to do with a stream that holds more bytes than the output's size.
    enum Surplus {
        /// Reject it: ``InflateError/tooMuchData(expected:)``.
        case reject
        /// Fill the output and decode the rest of the stream without keeping it, as libpng does
        /// with "too much image data": the end of the input before the stream's end is still
        /// ``InflateError/truncated``, but other errors in the rest and its Adler-32 (which
        /// covers bytes the caller does not use) are ignored.
        case discard
    }

    var reader: BitReader
    /// The first byte a match may refer back to; moves into the surplus window once the output
    /// is full (see `Inflater+Surplus.swift`).
    var outputStart: UnsafeMutablePointer<UInt8>
    var output: UnsafeMutablePointer<UInt8>
    /// Where the output must end; a streaming inflater moves it as it slides its window.
    var outputEnd: UnsafeMutablePointer<UInt8>
    /// ``decodeBlock(literalLengths:distances:)`` pauses before a symbol once the output is past
    /// this; ``outputEnd`` (never) unless streaming.
    var outputPause: UnsafeMutablePointer<UInt8>
    let workspace: InflateWorkspace
    let surplus: Surplus
    /// Where the surplus is decoded once the output is full; see `Inflater+Surplus.swift`.
    var surplusWindow: UnsafeMutablePointer<UInt8>?
    var hasFixedTables = false
    /// Checksums checked on the hot loop's rounds, alongside the decoding (see ``CRC32Lane``);
    /// none unless the caller gives some.
    var checksumLane = CRC32Lane()

    /// Prepares to decompress from `reader` into `outputCount` bytes at `output`.
    ///
    /// - Parameters:
    ///   - reader: The compressed input.
    ///   - output: Room for `outputCount` bytes followed by ``outputSlack`` writable bytes.
    ///   - outputCount: The bytes the output may hold.
    ///   - workspace: The tables' memory; the caller deallocates it.
    ///   - surplus: What to do with bytes beyond `outputCount`. Defaults to ``Surplus/reject``.
    init(
        reader: BitReader, output: UnsafeMutablePointer<UInt8>, outputCount: Int, workspace: InflateWorkspace,
        surplus: Surplus = .reject
    ) {
        self.reader = reader
        outputStart = output
        self.output = output
        outputEnd = output + outputCount
        outputPause = outputEnd
        self.workspace = workspace
        self.surplus = surplus
    }

    /// Decompresses a zlib stream into exactly `outputCount` bytes.
    ///
    /// - Parameters:
    ///   - input: The zlib stream, followed by ``BitReader/padding`` readable bytes.
    ///   - inputCount: The length of the stream, not counting the padding.
    ///   - output: Room for `outputCount` bytes followed by ``outputSlack`` writable bytes.
    ///   - outputCount: The exact number of bytes the stream must produce, or at least produce
    ///     with `surplus` ``Surplus/discard``.
    ///   - surplus: What to do with bytes beyond `outputCount`. Defaults to ``Surplus/reject``.
    ///   - checksumLane: Checksums to advance on the hot loop's rounds (a lane without ranges
    ///     for none); left as far as they got, whether the decompression succeeds or not.
    ///   - shouldStop: Asked before each block after the first; `true` stops the decompression
    ///     there (a store no longer needs the image being decoded).
    /// - Returns: `false` if `shouldStop` stopped it, leaving the output partially written.
    /// - Throws: ``InflateError`` if the stream is invalid, truncated, produces fewer (or, unless
    ///   discarded, more) bytes, or fails its checksum. The output is then partially written.
    /// - Complexity: O(`inputCount + outputCount`), plus the surplus's size if discarded.
    @discardableResult
    static func inflate(
        zlib input: UnsafePointer<UInt8>,
        count inputCount: Int,
        into output: UnsafeMutablePointer<UInt8>,
        count outputCount: Int,
        surplus: Surplus = .reject,
        checksumLane: inout CRC32Lane,
        shouldStop: (() -> Bool)? = nil
    ) throws(InflateError) -> Bool {
        let workspace = InflateWorkspace()
        defer { workspace.deallocate() }
        var inflater = Inflater(
            reader: BitReader(start: input, count: inputCount), output: output, outputCount: outputCount,
            workspace: workspace, surplus: surplus
        )
        defer { inflater.surplusWindow?.deallocate() }
        inflater.checksumLane = checksumLane
        defer { checksumLane = inflater.checksumLane }
        return try inflater.run(shouldStop: shouldStop)
    }

    /// - Returns: `false` if `shouldStop` stopped it between two blocks.
    private mutating func run(shouldStop: (() -> Bool)?) throws(InflateError) -> Bool {
        try readHeader()
        do {
            guard try readBlocks(shouldStop: shouldStop) else { return false }
        } catch {
            // Past the output's end only running out of input counts, as in libpng.
            guard error != .truncated else { throw error }
            if isDiscardingSurplus { return true }
            if surplus == .discard, output == outputEnd, case .distanceTooFarBack = error {
                // zlib decodes this match's codes with the image's last row but checks its
                // distance only when it copies it, as libpng reads the rest of the stream. libpng
                // reads on only while image data remains (with none left it fails the file: "Not
                // enough image data"); otherwise the error is past the image, where it only warns.
                guard reader.hasUntakenBytes else { throw .truncated }
                return true
            }
            throw error
        }
        if reader.isOverrun { throw .truncated }
        let expected = outputEnd - outputStart
        let produced = output - outputStart
        guard isDiscardingSurplus || produced == expected else {
            throw .tooLittleData(expected: expected, actual: produced)
        }
        let trailer = try reader.takeAlignedBytes(4)
        // The checksum of a stream with a surplus covers bytes that were not kept.
        if isDiscardingSurplus { return true }
        let declared =
            UInt32(trailer[0]) << 24 | UInt32(trailer[1]) << 16 | UInt32(trailer[2]) << 8
            | UInt32(trailer[3])
        let computed = Adler32.checksum(outputStart, count: expected)
        guard declared == computed else { throw .adlerMismatch(declared: declared, computed: computed) }
        return true
    }

    /// Decodes blocks up to and including the final one.
    ///
    /// - Returns: `false` if `shouldStop`, asked between blocks, stopped it.
    private mutating func readBlocks(shouldStop: (() -> Bool)?) throws(InflateError) -> Bool {
        var isFinalBlock = false
        repeat {
            if let shouldStop, output > outputStart, shouldStop() { return false }
            let blockHeader = try reader.read(3)
            isFinalBlock = blockHeader & 1 == 1
            switch blockHeader >> 1 {
            case 0:
                try copyStoredBlock()
            case 1:
                if !hasFixedTables {
                    try buildFixedTables()
                    hasFixedTables = true
                }
                // Complete input and no output pause: a pause means the input ran out.
                guard
                    try decodeBlock(
                        literalLengths: workspace.fixedLiteralLengthTable, distances: workspace.fixedDistanceTable
                    )
                else { throw failure(.truncated) }
            case 2:
                try readDynamicTables()
                guard try decodeBlock(literalLengths: workspace.literalLengthTable, distances: workspace.distanceTable)
                else { throw failure(.truncated) }
            default:
                throw failure(.badBlockType)
            }
        } while !isFinalBlock
        return true
    }

    /// Checks the two-byte zlib header: deflate, a window of at most 32 KiB, no preset dictionary.
    mutating func readHeader() throws(InflateError) {
        let header = try reader.takeAlignedBytes(2)
        let cmf = header[0]
        let flg = header[1]
        guard (UInt16(cmf) << 8 | UInt16(flg)) % 31 == 0 else { throw .badHeader(cmf: cmf, flg: flg) }
        guard cmf & 0x0F == 8, cmf >> 4 <= 7 else { throw .unsupportedMethod(cmf: cmf) }
        guard flg & 0x20 == 0 else { throw .presetDictionary }
    }

    /// Copies a stored (uncompressed) block: a byte-aligned length, its complement, the bytes.
    private mutating func copyStoredBlock() throws(InflateError) {
        let header = try reader.takeAlignedBytes(4)
        let length = UInt16(header[0]) | UInt16(header[1]) << 8
        let complement = UInt16(header[2]) | UInt16(header[3]) << 8
        guard length == ~complement else { throw .storedLengthMismatch(length: length, complement: complement) }
        let count = Int(length)
        let bytes = try reader.takeAlignedBytes(count)
        var copied = 0
        while true {
            let part = min(count - copied, outputEnd - output)
            output.update(from: bytes + copied, count: part)
            output += part
            copied += part
            if copied == count { return }
            try makeRoomForSurplus()
        }
    }

    /// Builds the tables of the fixed code (RFC 1951, 3.2.6).
    func buildFixedTables() throws(InflateError) {
        let lengths = workspace.codeLengths
        lengths.update(repeating: 8, count: 144)
        (lengths + 144).update(repeating: 9, count: 112)
        (lengths + 256).update(repeating: 7, count: 24)
        (lengths + 280).update(repeating: 8, count: 8)
        try HuffmanTable.build(
            lengths: lengths, symbolCount: 288, symbols: workspace.literalLengthSymbols,
            rootBits: HuffmanTable.literalLengthRootBits, into: workspace.fixedLiteralLengthTable,
            capacity: 1 << HuffmanTable.literalLengthRootBits, scratch: workspace.scratch,
            alphabet: .literalLength, pairsLiterals: true
        )
        lengths.update(repeating: 5, count: 32)
        try HuffmanTable.build(
            lengths: lengths, symbolCount: 32, symbols: workspace.distanceSymbols,
            rootBits: HuffmanTable.distanceRootBits, into: workspace.fixedDistanceTable,
            capacity: 1 << HuffmanTable.distanceRootBits, scratch: workspace.scratch,
            alphabet: .distance
        )
    }

    /// The error to report: bits read from the padding mean the stream was cut short, whatever
    /// nonsense they decoded to.
    func failure(_ error: InflateError) -> InflateError {
        reader.isOverrun ? .truncated : error
    }
}

/// Decompresses one zlib stream split over several pieces (a PNG's IDAT chunks) a chunk of
/// output at a time, holding only the 32 KiB window deflate may refer back to, a chunk of fresh
/// output and a small copy of the input.
///
/// The output must have at least the size the caller expects, as for ``Inflater`` with
/// ``Inflater/Surplus/discard``, and the errors are the same, in the same order: the stream is
/// checked to the end, its Adler-32 included, when ``next()`` returns `nil`. A stream that holds
/// more is decoded to its end without keeping the surplus (through the inflater's surplus
/// window: 64 KiB more), as libpng and a full decode do.
///
/// Decoding pauses only between symbols, where the state is the bit reader, the output position
/// and the current block's tables: before a symbol, the output has room for the longest match
/// (258 bytes) and the input holds more than the bytes a symbol can read.
struct StreamingInflater: ~Copyable {
    /// The bytes deflate may refer back to (RFC 1951: distances up to 32 768).
    static let windowCount = 32_768
    /// The fresh bytes decoded before ``next()`` hands them out.
    static let chunkCount = 131_072
    /// The longest match.
    private static let longestMatch = 258
    /// The compressed bytes copied from the pieces at a time.
    private static let stagingCount = 32_768
    /// Bytes a symbol may read past its start in the worst case (two refills of at most 7 bytes
    /// and an 8-byte load), rounded up.
    private static let symbolMargin = 64
    /// Bytes a block header may need: a dynamic header has at most 562 bytes of code lengths.
    private static let blockHeaderMargin = 1_024

    private enum Phase {
        case zlibHeader
        case blockHeader
        case huffman(fixed: Bool)
        case stored(remaining: Int)
        case trailer
        case finished
    }

    private let pieces: [UnsafeRawBufferPointer]
    private var pieceIndex = 0
    private var pieceOffset = 0
    /// A copy of the next compressed bytes, followed by ``BitReader/padding`` zeros.
    private let staging: UnsafeMutablePointer<UInt8>
    /// The compressed bytes ``staging`` holds: ``stagingCount``, or the whole stream if smaller.
    private let stagingCapacity: Int
    private var stagedCount = 0
    private var hasStagedEverything = false
    /// Window, then fresh output, then room for a match and the slack.
    private let buffer: UnsafeMutablePointer<UInt8>
    /// The window and fresh output ``buffer`` holds: ``windowCount`` + ``chunkCount``, or the
    /// whole output if smaller (an icon's stream then needs no more than its own size).
    private let outputCapacity: Int
    private var inflater: Inflater
    private let expectedCount: Int
    /// The bytes handed out so far.
    private var deliveredCount = 0
    private var checksum: UInt32 = 1
    private var phase = Phase.zlibHeader
    private var isFinalBlock = false
    /// Where the output ``next()`` was decoding when it threw, for ``salvage()``.
    private var salvageStart: UnsafeMutablePointer<UInt8>?

    /// Prepares to decompress the stream formed by `pieces` into exactly `expectedCount` bytes.
    ///
    /// - Parameters:
    ///   - pieces: The zlib stream's bytes, in order; read, never written, and not copied but a
    ///     few KiB at a time.
    ///   - expectedCount: The exact number of bytes the stream must produce.
    ///   - checksumLane: Checksums to advance on the inflater's hot loop (``checksumLane`` gives
    ///     them back); a lane without ranges for none.
    init(pieces: [UnsafeRawBufferPointer], expectedCount: Int, checksumLane: CRC32Lane) {
        self.pieces = pieces
        self.expectedCount = expectedCount
        stagingCapacity = min(Self.stagingCount, pieces.reduce(0) { $0 + $1.count })
        staging = .allocate(capacity: stagingCapacity + BitReader.padding)
        staging.initialize(repeating: 0, count: stagingCapacity + BitReader.padding)
        outputCapacity = min(expectedCount, Self.windowCount + Self.chunkCount)
        // Not initialized: the inflater writes every byte it hands out, and ``next()`` zeros the
        // few bytes after them that a reader may look at.
        buffer = .allocate(capacity: outputCapacity + Self.longestMatch + Inflater.outputSlack)
        inflater = Inflater(
            reader: BitReader(start: staging, count: 0), output: buffer, outputCount: 0,
            workspace: InflateWorkspace(), surplus: .discard
        )
        inflater.checksumLane = checksumLane
    }

    /// The checksums given to ``init(pieces:expectedCount:checksumLane:)``, as far as the
    /// decompression has advanced them.
    var checksumLane: CRC32Lane { inflater.checksumLane }

    deinit {
        inflater.surplusWindow?.deallocate()
        inflater.workspace.deallocate()
        staging.deallocate()
        buffer.deallocate()
    }

    /// Decompresses the next chunk.
    ///
    /// - Returns: The next bytes of the output (valid until the next call, followed by at least
    ///   two readable bytes), or `nil` once the whole output has been handed out and the stream
    ///   checked to its end.
    /// - Throws: ``InflateError`` as ``Inflater`` throws it.
    mutating func next() throws(InflateError) -> UnsafeBufferPointer<UInt8>? {
        if case .finished = phase { return nil }
        slideWindow()
        let freshStart = inflater.output
        let remaining = expectedCount - deliveredCount
        let physicalEnd = buffer + outputCapacity + Self.longestMatch
        let expectedEnd = freshStart + remaining
        inflater.outputEnd = physicalEnd - freshStart > remaining ? expectedEnd : physicalEnd
        inflater.outputPause = buffer + outputCapacity
        salvageStart = freshStart
        do {
            try decode(freshStart: freshStart)
        } catch {
            // As in a full decode: while the surplus is discarded only running out of input
            // counts, and a match reaching too far back right where the output is full ends it,
            // unless it took the last byte of the image data.
            guard error != .truncated else { throw error }
            if inflater.isDiscardingSurplus {
                phase = .finished
            } else if case .distanceTooFarBack = error, inflater.output == expectedEnd {
                guard !hasStagedEverything || inflater.reader.hasUntakenBytes else { throw .truncated }
                phase = .finished
            } else {
                throw error
            }
        }
        // Once the surplus is being discarded the output is complete, and the inflater writes
        // into its surplus window.
        let count = (inflater.isDiscardingSurplus ? expectedEnd : inflater.output) - freshStart
        guard count > 0 else { return nil }
        checksum = Adler32.checksum(freshStart, count: count, continuing: checksum)
        deliveredCount += count
        // Unfiltering the rows handed out may read a byte or two past them.
        (freshStart + count).update(repeating: 0, count: Inflater.outputSlack)
        return UnsafeBufferPointer(start: freshStart, count: count)
    }

    /// After ``next()`` threw: the bytes it had decoded, which a decoder showing a damaged file
    /// draws (an APNG frame cut short). Nothing after a second call.
    ///
    /// - Returns: The bytes (valid until the next call, followed by at least two readable
    ///   bytes), or nil if there are none.
    mutating func salvage() -> UnsafeBufferPointer<UInt8>? {
        guard let start = salvageStart else { return nil }
        salvageStart = nil
        let remaining = expectedCount - deliveredCount
        // Once the surplus is being discarded the output is complete, as in ``next()``.
        let count = inflater.isDiscardingSurplus ? remaining : min(inflater.output - start, remaining)
        guard count > 0 else { return nil }
        deliveredCount += count
        (start + count).update(repeating: 0, count: Inflater.outputSlack)
        return UnsafeBufferPointer(start: start, count: count)
    }

    /// Keeps the last ``windowCount`` bytes of output at the start of the buffer.
    private mutating func slideWindow() {
        let held = inflater.output - buffer
        guard held > Self.windowCount else { return }
        buffer.update(from: inflater.output - Self.windowCount, count: Self.windowCount)
        inflater.output = buffer + Self.windowCount
    }

    /// Runs the stream until the output chunk is full or the stream is done.
    private mutating func decode(freshStart: UnsafeMutablePointer<UInt8>) throws(InflateError) {
        while true {
            switch phase {
            case .zlibHeader:
                try stageInput(atLeast: Self.blockHeaderMargin)
                try inflater.readHeader()
                phase = .blockHeader
            case .blockHeader:
                if isFinalBlock {
                    phase = .trailer
                    continue
                }
                try stageInput(atLeast: Self.blockHeaderMargin)
                try readBlockHeader()
            case .huffman(let fixed):
                let workspace = inflater.workspace
                let ended =
                    fixed
                    ? try inflater.decodeBlock(
                        literalLengths: workspace.fixedLiteralLengthTable, distances: workspace.fixedDistanceTable
                    )
                    : try inflater.decodeBlock(
                        literalLengths: workspace.literalLengthTable, distances: workspace.distanceTable
                    )
                if ended {
                    phase = .blockHeader
                } else if inflater.output > inflater.outputPause {
                    return
                } else if hasStagedEverything {
                    // Paused at the end of complete input: the stream is cut short.
                    throw inflater.failure(.truncated)
                } else {
                    try stageInput(atLeast: Self.blockHeaderMargin)
                }
            case .stored(let remaining):
                guard remaining > 0 else {
                    phase = .blockHeader
                    continue
                }
                if inflater.output > inflater.outputPause { return }
                try copyStored(remaining: remaining)
            case .trailer:
                if inflater.isDiscardingSurplus {
                    try checkTrailerAfterSurplus()
                    phase = .finished
                    return
                }
                // Hand out the last bytes before checking the stream's end.
                if inflater.output > freshStart { return }
                try checkTrailer()
                phase = .finished
                return
            case .finished:
                return
            }
        }
    }

    /// Reads a block's 3-bit header and, for a Huffman block, its tables.
    private mutating func readBlockHeader() throws(InflateError) {
        let blockHeader = try inflater.reader.read(3)
        isFinalBlock = blockHeader & 1 == 1
        switch blockHeader >> 1 {
        case 0:
            let header = try inflater.reader.takeAlignedBytes(4)
            let length = UInt16(header[0]) | UInt16(header[1]) << 8
            let complement = UInt16(header[2]) | UInt16(header[3]) << 8
            guard length == ~complement else {
                throw .storedLengthMismatch(length: length, complement: complement)
            }
            phase = .stored(remaining: Int(length))
        case 1:
            if !inflater.hasFixedTables {
                try inflater.buildFixedTables()
                inflater.hasFixedTables = true
            }
            phase = .huffman(fixed: true)
        case 2:
            try inflater.readDynamicTables()
            phase = .huffman(fixed: false)
        default:
            throw inflater.failure(.badBlockType)
        }
    }

    /// Copies as much of a stored block as the staged input and the output chunk allow.
    private mutating func copyStored(remaining: Int) throws(InflateError) {
        try stageInput(atLeast: Self.blockHeaderMargin)
        let staged = stagedCount - inflater.reader.consumedBitCount / 8
        // Only the output's end leaves no room (a chunk's end pauses first): go on discarding.
        if inflater.output == inflater.outputEnd { try inflater.makeRoomForSurplus() }
        let room = inflater.outputEnd - inflater.output
        guard staged > 0 else { throw .truncated }
        let count = min(remaining, staged, room)
        let bytes = try inflater.reader.takeAlignedBytes(count)
        inflater.output.update(from: bytes, count: count)
        inflater.output += count
        phase = .stored(remaining: remaining - count)
    }

    /// Checks, after the final block, that the stream is whole, produced exactly the expected
    /// bytes, and ends with their Adler-32.
    private mutating func checkTrailer() throws(InflateError) {
        try stageInput(atLeast: Self.blockHeaderMargin)
        if inflater.reader.isOverrun { throw .truncated }
        guard deliveredCount == expectedCount else {
            throw .tooLittleData(expected: expectedCount, actual: deliveredCount)
        }
        let trailer = try inflater.reader.takeAlignedBytes(4)
        let declared =
            UInt32(trailer[0]) << 24 | UInt32(trailer[1]) << 16 | UInt32(trailer[2]) << 8 | UInt32(trailer[3])
        guard declared == checksum else { throw .adlerMismatch(declared: declared, computed: checksum) }
    }

    /// Checks, after the final block of a stream with a surplus, that the stream is whole; its
    /// Adler-32 covers bytes that were not kept, so it is not checked.
    private mutating func checkTrailerAfterSurplus() throws(InflateError) {
        try stageInput(atLeast: Self.blockHeaderMargin)
        if inflater.reader.isOverrun { throw .truncated }
        _ = try inflater.reader.takeAlignedBytes(4)
    }

    /// Makes sure at least `count` unread compressed bytes are staged, or all that are left:
    /// moves the unread bytes to the start of the staging buffer, appends bytes from the pieces,
    /// and points a new reader at them, as far into the first byte as the old one had read.
    private mutating func stageInput(atLeast count: Int) throws(InflateError) {
        let consumedBits = inflater.reader.consumedBitCount
        let consumedBytes = consumedBits / 8
        guard !hasStagedEverything, stagedCount - consumedBytes < count else { return }
        let kept = stagedCount - consumedBytes
        staging.update(from: staging + consumedBytes, count: kept)
        stagedCount = kept
        while stagedCount < stagingCapacity, pieceIndex < pieces.count {
            let piece = pieces[pieceIndex]
            let taken = min(stagingCapacity - stagedCount, piece.count - pieceOffset)
            if taken > 0, let base = piece.baseAddress {
                (staging + stagedCount).update(
                    from: base.assumingMemoryBound(to: UInt8.self) + pieceOffset, count: taken
                )
            }
            stagedCount += taken
            pieceOffset += taken
            if pieceOffset == piece.count {
                pieceIndex += 1
                pieceOffset = 0
            }
        }
        hasStagedEverything = pieceIndex == pieces.count
        (staging + stagedCount).update(repeating: 0, count: BitReader.padding)
        var reader = BitReader(
            start: staging, count: stagedCount, pauseMargin: hasStagedEverything ? nil : Self.symbolMargin
        )
        let skippedBits = consumedBits % 8
        if skippedBits > 0 {
            try reader.refill()
            reader.consume(skippedBits)
        }
        inflater.reader = reader
    }
}

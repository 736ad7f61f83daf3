/// Huffman-coded blocks: reading a dynamic block's code definitions and decoding symbols.
extension Inflater {
    /// The order in which a dynamic block lists the code-length code's lengths (RFC 1951, 3.2.7).
    private static let codeLengthOrder: [Int] = [16, 17, 18, 0, 8, 7, 9, 6, 10, 5, 11, 4, 12, 3, 13, 2, 14, 1, 15]

    /// Fails as zlib fails on a code-length code with no codes. zlib accepts the empty code and
    /// reads every code length with it, one bit each as length 0, then finds no end-of-block
    /// code; a stream that ends first is truncated. Past the image's last byte libpng rejects the
    /// one and ignores the other, so which error comes first decides whether the file shows.
    private mutating func readCodeLengthsWithAnEmptyCode(count: Int) throws(InflateError) -> Never {
        for _ in 0..<count { _ = try reader.read(1) }
        throw failure(.missingEndOfBlock)
    }

    /// The error for bits that are no code, as zlib meets them. zlib calls bits invalid only once
    /// it holds as many as the table entry covers (a reserved symbol's code length, or one bit
    /// where a code is incomplete); with fewer left in the stream it waits for input that never
    /// comes, which is a truncated stream, not a bad one (libpng's verdicts differ past the image).
    func invalidCode(_ alphabet: InflateError.Alphabet, entry: UInt32) -> InflateError {
        let covered = max(1, Int(entry >> 8 & 0xF))
        return reader.remainingBitCount < covered ? .truncated : failure(.invalidCode(alphabet))
    }

    /// Reads a dynamic block's header and builds its literal/length and distance tables.
    mutating func readDynamicTables() throws(InflateError) {
        try reader.refill()
        let literalLengthCount = reader.peek(5) + 257
        reader.consume(5)
        let distanceCount = reader.peek(5) + 1
        reader.consume(5)
        let codeLengthCount = reader.peek(4) + 4
        reader.consume(4)
        guard literalLengthCount <= 286, distanceCount <= 30 else {
            throw failure(.tooManyCodes(literalLength: literalLengthCount, distance: distanceCount))
        }

        let lengths = workspace.codeLengths
        lengths.update(repeating: 0, count: 19)
        for index in 0..<codeLengthCount {
            lengths[Self.codeLengthOrder[index]] = UInt8(truncatingIfNeeded: try reader.read(3))
        }
        let total = literalLengthCount + distanceCount
        if (0..<19).allSatisfy({ lengths[$0] == 0 }) {
            try readCodeLengthsWithAnEmptyCode(count: total)
        }
        do {
            try HuffmanTable.build(
                lengths: lengths, symbolCount: 19, symbols: workspace.codeLengthSymbols,
                rootBits: HuffmanTable.codeLengthRootBits, into: workspace.codeLengthTable,
                capacity: HuffmanTable.codeLengthCapacity, scratch: workspace.scratch, alphabet: .codeLength
            )
        } catch {
            throw failure(error)
        }

        var index = 0
        while index < total {
            // A code (at most 7 bits) and its repeat count (at most 7 bits).
            if reader.bitCount < 14 { try reader.refill() }
            let entry = workspace.codeLengthTable[reader.peek(HuffmanTable.codeLengthRootBits)]
            guard entry & HuffmanTable.exceptional == 0 else { throw invalidCode(.codeLength, entry: entry) }
            reader.consume(entry: entry)
            let symbol = Int(entry >> 16)
            if symbol < 16 {
                lengths[index] = UInt8(truncatingIfNeeded: symbol)
                index += 1
                continue
            }
            let repeated: UInt8
            let count: Int
            switch symbol {
            case 16:
                guard index > 0 else { throw failure(.invalidRepeat) }
                repeated = lengths[index - 1]
                count = 3 + reader.peek(2)
                reader.consume(2)
            case 17:
                repeated = 0
                count = 3 + reader.peek(3)
                reader.consume(3)
            default:
                repeated = 0
                count = 11 + reader.peek(7)
                reader.consume(7)
            }
            guard count <= total - index else { throw failure(.invalidRepeat) }
            (lengths + index).update(repeating: repeated, count: count)
            index += count
        }
        guard lengths[256] != 0 else { throw failure(.missingEndOfBlock) }
        do {
            try HuffmanTable.build(
                lengths: lengths, symbolCount: literalLengthCount, symbols: workspace.literalLengthSymbols,
                rootBits: HuffmanTable.literalLengthRootBits, into: workspace.literalLengthTable,
                capacity: HuffmanTable.literalLengthCapacity, scratch: workspace.scratch, alphabet: .literalLength,
                pairsLiterals: true
            )
            try HuffmanTable.build(
                lengths: lengths + literalLengthCount, symbolCount: distanceCount,
                symbols: workspace.distanceSymbols, rootBits: HuffmanTable.distanceRootBits,
                into: workspace.distanceTable, capacity: HuffmanTable.distanceCapacity,
                scratch: workspace.scratch, alphabet: .distance
            )
        } catch {
            throw failure(error)
        }
    }

    /// Bytes of output a round of ``decodeWithRoom(literalLengths:distances:)`` may write before
    /// its end: two root entries of up to two literals, then the longest match (three entries
    /// of literals write 6).
    private static let roundOutputMargin = 2 * 2 + 258

    /// Decodes the symbols of one Huffman-coded block up to its end-of-block symbol.
    ///
    /// The hot loop, ``decodeWithRoom(literalLengths:distances:)``, runs while the output and
    /// the input are far from their ends and pause points; this loop, which checks every write
    /// against the output's end and spills past it, takes the symbols near them.
    ///
    /// - Returns: `true` at the end of the block; `false` if it paused before a symbol because
    ///   the output passed ``outputPause`` or the input its pause limit (see
    ///   ``BitReader/isPastPauseLimit``); calling it again resumes there.
    mutating func decodeBlock(
        literalLengths: UnsafePointer<UInt32>, distances: UnsafePointer<UInt32>
    ) throws(InflateError) -> Bool {
        if try decodeWithRoom(literalLengths: literalLengths, distances: distances) { return true }
        var reader = self.reader
        var output = self.output
        var outputStart = self.outputStart
        var outputEnd = self.outputEnd
        var outputPause = self.outputPause
        let literalRootBits = HuffmanTable.literalLengthRootBits
        while true {
            if output > outputPause || reader.isPastPauseLimit {
                self.reader = reader
                self.output = output
                return false
            }
            try reader.refill()
            var entry = literalLengths[reader.peek(literalRootBits)]
            if entry & HuffmanTable.literal != 0 {
                reader.consume(entry: entry)
                if !Self.writeLiterals(entry, to: &output, end: outputEnd) {
                    try spill(
                        literals: entry, reader: reader, output: &output, start: &outputStart, end: &outputEnd,
                        pause: &outputPause)
                }
                continue
            }
            if entry & HuffmanTable.link != 0 {
                entry = literalLengths[Self.subtableIndex(entry, reader.bits, rootBits: literalRootBits)]
                if entry & HuffmanTable.literal != 0 {
                    reader.consume(entry: entry)
                    guard output < outputEnd else {
                        try spill(
                            literals: entry, reader: reader, output: &output, start: &outputStart, end: &outputEnd,
                            pause: &outputPause)
                        continue
                    }
                    Self.storeLiteral(entry, to: &output)
                    continue
                }
            }
            guard
                let (length, distance) = try decodeMatch(
                    entry, reader: &reader, output: output, outputStart: outputStart, distances: distances)
            else { return true }
            guard length <= outputEnd - output else {
                self.reader = reader
                self.output = output
                try writeSurplus(matchLength: length, distance: distance)
                (output, outputStart, outputEnd, outputPause) = (
                    self.output, self.outputStart, self.outputEnd, self.outputPause
                )
                continue
            }
            Self.copyMatch(to: output, distance: distance, length: length)
            output += length
        }
    }

    /// The hot loop of the decoder: decodes symbols while a whole round fits, so that no write
    /// needs a check against the output's end and no refill one against the input's.
    ///
    /// A round starts only where the output has ``roundOutputMargin`` bytes before its end and
    /// has not passed ``outputPause``, and the input allows three refills before its pause limit
    /// (see ``BitReader/hasRoomForThreeRefills``). The reader and output position live in locals
    /// (registers); most codes take one table load; a run of literals takes up to three root
    /// entries of one or two literals per refill (56 buffered bits cover three entries of at
    /// most 11 bits); a match (at most 48 bits with its distance) takes one refill. Each round
    /// also advances ``checksumLane``.
    ///
    /// - Returns: `true` at the end of the block; `false` where a round might not fit, with the
    ///   state saved for ``decodeBlock(literalLengths:distances:)`` to go on.
    @inline(__always)
    private mutating func decodeWithRoom(
        literalLengths: UnsafePointer<UInt32>, distances: UnsafePointer<UInt32>
    ) throws(InflateError) -> Bool {
        guard outputEnd - output >= Self.roundOutputMargin else { return false }
        let outputLimit = min(outputPause, outputEnd - Self.roundOutputMargin)
        var reader = self.reader
        var output = self.output
        let outputStart = self.outputStart
        var checksumLane = self.checksumLane
        defer { self.checksumLane = checksumLane }
        let literalRootBits = HuffmanTable.literalLengthRootBits
        while output <= outputLimit, reader.hasRoomForThreeRefills {
            // Independent of the symbols: it runs while the round waits on its table loads.
            checksumLane.advance()
            // A round starts with at least `literalRootBits` bits buffered (only the first and
            // those after the longest matches need a refill here), so its first lookup need not
            // wait for the refill below, which keeps the low bits as they are.
            if reader.bitCount < literalRootBits { reader.refillWithinLimit() }
            var entry = literalLengths[reader.peek(literalRootBits)]
            reader.refillWithinLimit()
            if entry & HuffmanTable.literal != 0 {
                // The second byte is stored even for a single literal, landing where the next
                // symbol goes.
                Self.storeLiterals(entry, to: &output)
                reader.consume(entry: entry)
                entry = literalLengths[reader.peek(literalRootBits)]
                if entry & HuffmanTable.literal != 0 {
                    Self.storeLiterals(entry, to: &output)
                    reader.consume(entry: entry)
                    entry = literalLengths[reader.peek(literalRootBits)]
                    if entry & HuffmanTable.literal != 0 {
                        Self.storeLiterals(entry, to: &output)
                        reader.consume(entry: entry)
                        continue
                    }
                }
                // The entry came from bits still buffered; a refill keeps them and adds more.
                reader.refillWithinLimit()
            }
            if entry & HuffmanTable.link != 0 {
                entry = literalLengths[Self.subtableIndex(entry, reader.bits, rootBits: literalRootBits)]
                if entry & HuffmanTable.literal != 0 {
                    reader.consume(entry: entry)
                    Self.storeLiteral(entry, to: &output)
                    continue
                }
            }
            guard
                let (length, distance) = try decodeMatch(
                    entry, reader: &reader, output: output, outputStart: outputStart, distances: distances)
            else { return true }
            Self.copyMatchWithRoom(to: output, distance: distance, length: length)
            output += length
        }
        self.reader = reader
        self.output = output
        return false
    }

    /// What a literal/length entry that is not a literal means: nil at the end of the block
    /// (its code consumed), else a match's length and distance, decoded and checked against
    /// the output written so far. Both loops use it; the reader and `output` are saved to
    /// `self` at the end of the block, and before an error is thrown, so the error says where.
    @inline(__always)
    private mutating func decodeMatch(
        _ entry: UInt32, reader: inout BitReader, output: UnsafeMutablePointer<UInt8>,
        outputStart: UnsafeMutablePointer<UInt8>, distances: UnsafePointer<UInt32>
    ) throws(InflateError) -> (length: Int, distance: Int)? {
        if entry & HuffmanTable.exceptional != 0 {
            guard entry &>> 16 == 0 else {
                self.reader = reader
                throw invalidCode(.literalLength, entry: entry)
            }
            reader.consume(entry: entry)
            self.reader = reader
            self.output = output
            return nil
        }
        let length = Self.decodeValue(entry, &reader)
        let distanceRootBits = HuffmanTable.distanceRootBits
        var distanceEntry = distances[reader.peek(distanceRootBits)]
        if distanceEntry & HuffmanTable.link != 0 {
            distanceEntry = distances[Self.subtableIndex(distanceEntry, reader.bits, rootBits: distanceRootBits)]
        }
        guard distanceEntry & HuffmanTable.exceptional == 0 else {
            self.reader = reader
            throw invalidCode(.distance, entry: distanceEntry)
        }
        let distance = Self.decodeValue(distanceEntry, &reader)
        guard distance <= output - outputStart else {
            self.reader = reader
            self.output = output
            throw failure(.distanceTooFarBack(distance: distance, available: output - outputStart))
        }
        return (length, distance)
    }

    /// The cold path of literals that do not fit before the output's end (see
    /// `Inflater+Surplus.swift`): syncs the hot loop's locals with `self` around the write.
    @inline(never)
    private mutating func spill(
        literals entry: UInt32,
        reader: BitReader,
        output: inout UnsafeMutablePointer<UInt8>,
        start: inout UnsafeMutablePointer<UInt8>,
        end: inout UnsafeMutablePointer<UInt8>,
        pause: inout UnsafeMutablePointer<UInt8>
    ) throws(InflateError) {
        self.reader = reader
        self.output = output
        try writeSurplus(literals: entry)
        (output, start, end, pause) = (self.output, self.outputStart, self.outputEnd, self.outputPause)
    }

    /// Writes the one literal of a subtable entry where the output has room for it.
    @inline(__always)
    private static func storeLiteral(_ entry: UInt32, to output: inout UnsafeMutablePointer<UInt8>) {
        output.pointee = UInt8(truncatingIfNeeded: entry &>> 16)
        output += 1
    }

    /// Writes the one or two literals of a root entry where the output has room for two bytes.
    @inline(__always)
    private static func storeLiterals(_ entry: UInt32, to output: inout UnsafeMutablePointer<UInt8>) {
        output[0] = UInt8(truncatingIfNeeded: entry &>> 16)
        output[1] = UInt8(truncatingIfNeeded: entry &>> 8)
        output += 1 &+ Int(entry &>> 30 & 1)
    }

    /// Writes the one or two literals of a root entry.
    ///
    /// - Returns: `false`, writing nothing, if they do not fit before `end`.
    @inline(__always)
    private static func writeLiterals(
        _ entry: UInt32, to output: inout UnsafeMutablePointer<UInt8>, end: UnsafeMutablePointer<UInt8>
    ) -> Bool {
        let count = 1 &+ Int(entry &>> 30 & 1)
        guard count <= end - output else { return false }
        output[0] = UInt8(truncatingIfNeeded: entry &>> 16)
        output[1] = UInt8(truncatingIfNeeded: entry &>> 8)
        output += count
        return true
    }

    /// The index in the table of the subtable entry a link entry leads to.
    @inline(__always)
    private static func subtableIndex(_ link: UInt32, _ bits: UInt64, rootBits: Int) -> Int {
        let indexBits = Int(link &>> 12 & 0xF)
        return Int(link &>> 16) &+ Int(truncatingIfNeeded: bits &>> UInt64(rootBits)) & ((1 &<< indexBits) &- 1)
    }

    /// Consumes a length or distance code and its extra bits and returns base + extra.
    @inline(__always)
    private static func decodeValue(_ entry: UInt32, _ reader: inout BitReader) -> Int {
        let bits = reader.bits
        reader.consume(entry: entry)
        let codeLength = UInt64(entry &>> 8 & 0xF)
        let extraBits = Int(entry &>> 12 & 0xF)
        let extra = Int(truncatingIfNeeded: bits &>> codeLength) & ((1 &<< extraBits) &- 1)
        return Int(entry &>> 16) &+ extra
    }

    /// ``copyMatch(to:distance:length:)`` where the output has room for 16 bytes from
    /// `destination` and 7 past the match: for a distance of at least 8, the first 16 bytes are
    /// copied without a test, so the matches of photos (mostly 6-16 bytes) take no branch on
    /// their length.
    @inline(__always)
    private static func copyMatchWithRoom(to destination: UnsafeMutablePointer<UInt8>, distance: Int, length: Int) {
        guard distance >= 8 else {
            copyMatch(to: destination, distance: distance, length: length)
            return
        }
        // Each 8-byte load reads only bytes written before it, as the source trails by >= 8.
        var source = UnsafeRawPointer(destination - distance)
        var target = UnsafeMutableRawPointer(destination)
        target.storeBytes(of: source.loadUnaligned(as: UInt64.self), as: UInt64.self)
        target.storeBytes(of: (source + 8).loadUnaligned(as: UInt64.self), toByteOffset: 8, as: UInt64.self)
        guard length > 16 else { return }
        let end = UnsafeMutableRawPointer(destination + length)
        source += 16
        target += 16
        repeat {
            target.storeBytes(of: source.loadUnaligned(as: UInt64.self), as: UInt64.self)
            source += 8
            target += 8
        } while target < end
    }

    /// Copies `length` bytes from `distance` bytes back, where the two ranges may overlap (a
    /// distance shorter than the length repeats the last `distance` bytes).
    ///
    /// Writes up to 7 bytes past the match, which the output's slack absorbs and later matches
    /// or literals overwrite.
    @inline(__always)
    static func copyMatch(to destination: UnsafeMutablePointer<UInt8>, distance: Int, length: Int) {
        let end = UnsafeMutableRawPointer(destination + length)
        var target = UnsafeMutableRawPointer(destination)
        if distance >= 8 {
            // Each 8-byte load reads only bytes written before it, as the source trails by >= 8.
            var source = UnsafeRawPointer(destination - distance)
            repeat {
                target.storeBytes(of: source.loadUnaligned(as: UInt64.self), as: UInt64.self)
                source += 8
                target += 8
            } while target < end
        } else if distance == 1 {
            let pattern = UInt64(destination[-1]) &* 0x0101_0101_0101_0101
            repeat {
                target.storeBytes(of: pattern, as: UInt64.self)
                target += 8
            } while target < end
        } else {
            for index in 0..<length {
                destination[index] = destination[index &- distance]
            }
        }
    }
}

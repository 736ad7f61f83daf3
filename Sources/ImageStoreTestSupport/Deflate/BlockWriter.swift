/// Writes one DEFLATE block in whichever of the three encodings is smallest (RFC 1951, 3.2.3).
enum BlockWriter {
    private typealias Alphabet = DeflateAlphabet

    private static let fixedLiteralCode = HuffmanCode(
        lengths: (0..<288).map { $0 < 144 ? 8 : $0 < 256 ? 9 : $0 < 280 ? 7 : 8 })
    private static let fixedDistanceCode = HuffmanCode(lengths: [Int](repeating: 5, count: 30))

    /// Appends the block holding `symbols`, which encode exactly the bytes `raw`.
    static func write(
        _ symbols: [LZ77Symbol], raw: Slice<UnsafeBufferPointer<UInt8>>, isFinal: Bool, to writer: inout BitWriter
    ) {
        var literalFrequencies = [Int](repeating: 0, count: 286)
        var distanceFrequencies = [Int](repeating: 0, count: 30)
        var extraBitCount = 0
        literalFrequencies[Alphabet.endOfBlock] = 1
        for symbol in symbols {
            if symbol.distance == 0 {
                literalFrequencies[symbol.length] += 1
            } else {
                let lengthCode = Alphabet.lengthCodeOfLength[symbol.length]
                let distanceCode = Alphabet.distanceCodeOfDistance[symbol.distance]
                literalFrequencies[257 + lengthCode] += 1
                distanceFrequencies[distanceCode] += 1
                extraBitCount += Alphabet.lengthExtraBits[lengthCode] + Alphabet.distanceExtraBits[distanceCode]
            }
        }

        let dynamic = DynamicHeader(literalFrequencies: literalFrequencies, distanceFrequencies: distanceFrequencies)
        let dynamicBits =
            3 + dynamic.bitCount + dynamic.literalCode.bitCount(for: literalFrequencies)
            + dynamic.distanceCode.bitCount(for: distanceFrequencies) + extraBitCount
        let fixedBits =
            3 + fixedLiteralCode.bitCount(for: literalFrequencies + [0, 0])
            + fixedDistanceCode.bitCount(for: distanceFrequencies) + extraBitCount
        let storedChunkCount = max(1, (raw.count + 65_534) / 65_535)
        let storedBits = storedChunkCount * (3 + 7 + 32) + raw.count * 8

        if storedBits < min(dynamicBits, fixedBits) {
            writeStored(raw, isFinal: isFinal, to: &writer)
        } else if fixedBits <= dynamicBits {
            writer.write(isFinal ? 1 : 0, bitCount: 1)
            writer.write(1, bitCount: 2)
            writeSymbols(symbols, literalCode: fixedLiteralCode, distanceCode: fixedDistanceCode, to: &writer)
        } else {
            writer.write(isFinal ? 1 : 0, bitCount: 1)
            writer.write(2, bitCount: 2)
            dynamic.write(to: &writer)
            writeSymbols(symbols, literalCode: dynamic.literalCode, distanceCode: dynamic.distanceCode, to: &writer)
        }
    }

    private static func writeStored(_ raw: Slice<UnsafeBufferPointer<UInt8>>, isFinal: Bool, to writer: inout BitWriter)
    {
        var start = raw.startIndex
        repeat {
            let end = min(start + 65_535, raw.endIndex)
            writer.write(isFinal && end == raw.endIndex ? 1 : 0, bitCount: 1)
            writer.write(0, bitCount: 2)
            writer.alignToByte()
            let length = UInt32(end - start)
            writer.write(length, bitCount: 16)
            writer.write(~length & 0xFFFF, bitCount: 16)
            writer.append(contentsOf: raw[start..<end])
            start = end
        } while start < raw.endIndex
    }

    private static func writeSymbols(
        _ symbols: [LZ77Symbol], literalCode: HuffmanCode, distanceCode: HuffmanCode, to writer: inout BitWriter
    ) {
        for symbol in symbols {
            if symbol.distance == 0 {
                writer.write(huffmanCode: literalCode.codes[symbol.length], length: literalCode.lengths[symbol.length])
                continue
            }
            let lengthCode = Alphabet.lengthCodeOfLength[symbol.length]
            writer.write(
                huffmanCode: literalCode.codes[257 + lengthCode], length: literalCode.lengths[257 + lengthCode])
            writer.write(
                UInt32(symbol.length - Alphabet.lengthBases[lengthCode]), bitCount: Alphabet.lengthExtraBits[lengthCode]
            )
            let distanceCodeIndex = Alphabet.distanceCodeOfDistance[symbol.distance]
            writer.write(
                huffmanCode: distanceCode.codes[distanceCodeIndex], length: distanceCode.lengths[distanceCodeIndex])
            writer.write(
                UInt32(symbol.distance - Alphabet.distanceBases[distanceCodeIndex]),
                bitCount: Alphabet.distanceExtraBits[distanceCodeIndex])
        }
        writer.write(
            huffmanCode: literalCode.codes[Alphabet.endOfBlock], length: literalCode.lengths[Alphabet.endOfBlock])
    }

    /// The header of a dynamic block: the two codes, sent as run-length-coded code lengths.
    private struct DynamicHeader {
        let literalCode: HuffmanCode
        let distanceCode: HuffmanCode
        private let literalCount: Int
        private let distanceCount: Int
        /// Code-length symbols (0...18) with the value and width of their extra bits.
        private let runs: [(symbol: Int, extra: UInt32, extraBitCount: Int)]
        private let codeLengthCode: HuffmanCode
        private let codeLengthCount: Int

        init(literalFrequencies: [Int], distanceFrequencies: [Int]) {
            literalCode = HuffmanCode(frequencies: literalFrequencies, maximumLength: 15)
            distanceCode = HuffmanCode(frequencies: distanceFrequencies, maximumLength: 15)
            literalCount = max(257, (literalCode.lengths.lastIndex { $0 > 0 } ?? 0) + 1)
            distanceCount = max(1, (distanceCode.lengths.lastIndex { $0 > 0 } ?? 0) + 1)
            runs = Self.runLengthEncode(
                Array(literalCode.lengths[..<literalCount])
                    + Array(distanceCode.lengths[..<distanceCount]))
            var codeLengthFrequencies = [Int](repeating: 0, count: 19)
            for run in runs {
                codeLengthFrequencies[run.symbol] += 1
            }
            let codeLengthCode = HuffmanCode(frequencies: codeLengthFrequencies, maximumLength: 7)
            self.codeLengthCode = codeLengthCode
            let lastSent = Alphabet.codeLengthOrder.lastIndex { codeLengthCode.lengths[$0] > 0 } ?? 0
            codeLengthCount = max(4, lastSent + 1)
        }

        var bitCount: Int {
            14 + 3 * codeLengthCount
                + runs.reduce(0) { $0 + codeLengthCode.lengths[$1.symbol] + $1.extraBitCount }
        }

        func write(to writer: inout BitWriter) {
            writer.write(UInt32(literalCount - 257), bitCount: 5)
            writer.write(UInt32(distanceCount - 1), bitCount: 5)
            writer.write(UInt32(codeLengthCount - 4), bitCount: 4)
            for symbol in Alphabet.codeLengthOrder.prefix(codeLengthCount) {
                writer.write(UInt32(codeLengthCode.lengths[symbol]), bitCount: 3)
            }
            for run in runs {
                writer.write(huffmanCode: codeLengthCode.codes[run.symbol], length: codeLengthCode.lengths[run.symbol])
                writer.write(run.extra, bitCount: run.extraBitCount)
            }
        }

        /// Codes 16 (repeat the previous length 3-6 times), 17 (3-10 zeros) and 18 (11-138 zeros).
        private static func runLengthEncode(_ lengths: [Int]) -> [(symbol: Int, extra: UInt32, extraBitCount: Int)] {
            var runs: [(symbol: Int, extra: UInt32, extraBitCount: Int)] = []
            var index = 0
            while index < lengths.count {
                let value = lengths[index]
                var runLength = 1
                while index + runLength < lengths.count && lengths[index + runLength] == value {
                    runLength += 1
                }
                var remaining = runLength
                if value == 0 {
                    while remaining >= 11 {
                        let take = min(remaining, 138)
                        runs.append((18, UInt32(take - 11), 7))
                        remaining -= take
                    }
                    if remaining >= 3 {
                        runs.append((17, UInt32(remaining - 3), 3))
                        remaining = 0
                    }
                } else {
                    runs.append((value, 0, 0))
                    remaining -= 1
                    while remaining >= 3 {
                        let take = min(remaining, 6)
                        runs.append((16, UInt32(take - 3), 2))
                        remaining -= take
                    }
                }
                for _ in 0..<remaining {
                    runs.append((value, 0, 0))
                }
                index += runLength
            }
            return runs
        }
    }
}

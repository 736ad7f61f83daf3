/// One RIFF chunk: its four-character code and its payload's byte range in the file.
struct WebPChunk {
    var fourCC: String
    /// Where the chunk header starts.
    var offset: Int
    var payload: Range<Int>
}

/// Walks the chunks of a RIFF `WEBP` file, or of an `ANMF` payload, checking every size.
struct WebPChunkReader {
    private let bytes: UnsafeRawBufferPointer
    private var offset: Int
    /// Where the chunks end: the RIFF payload's end, or the `ANMF` payload's.
    private let end: Int

    /// A reader after the RIFF header of `bytes`.
    ///
    /// - Throws: ``WebPError/badSignature``, ``WebPError/riffSizeTooSmall(declared:)`` or
    ///   ``WebPError/truncated(chunk:offset:expectedEnd:)`` when the file is shorter than its
    ///   RIFF size says.
    init(_ bytes: UnsafeRawBufferPointer) throws(WebPError) {
        let riff: [UInt8] = Array("RIFF".utf8)
        let webp: [UInt8] = Array("WEBP".utf8)
        guard bytes.count >= 12 else {
            if bytes.elementsEqual(riff.prefix(bytes.count)) || (bytes.count >= 4 && bytes.starts(with: riff)) {
                throw .truncated(chunk: "RIFF", offset: bytes.count, expectedEnd: 12)
            }
            throw .badSignature
        }
        guard bytes.starts(with: riff), bytes[8..<12].elementsEqual(webp) else { throw .badSignature }
        let declared = Self.uint32(bytes, at: 4)
        // The payload holds `WEBP` and at least one chunk header.
        guard declared >= 12 else { throw .riffSizeTooSmall(declared: declared) }
        let riffEnd = 8 + declared
        guard riffEnd <= bytes.count else {
            throw .truncated(chunk: "RIFF", offset: bytes.count, expectedEnd: riffEnd)
        }
        self.bytes = bytes
        offset = 12
        end = riffEnd
    }

    /// A reader over the chunks inside `range` of `bytes`.
    init(_ bytes: UnsafeRawBufferPointer, within range: Range<Int>) {
        self.bytes = bytes
        offset = range.lowerBound
        end = range.upperBound
    }

    static func uint32(_ bytes: UnsafeRawBufferPointer, at offset: Int) -> Int {
        Int(bytes[offset]) | Int(bytes[offset + 1]) << 8 | Int(bytes[offset + 2]) << 16 | Int(bytes[offset + 3]) << 24
    }

    /// The next chunk, or nil at the end (a stub of fewer than 8 bytes, padding, ends the walk).
    ///
    /// - Throws: ``WebPError/chunkBeyondRIFF(chunk:offset:end:riffEnd:)`` when the chunk's size
    ///   passes the end.
    mutating func next() throws(WebPError) -> WebPChunk? {
        guard offset + 8 <= end else { return nil }
        let fourCC = String(decoding: bytes[offset..<offset + 4], as: UTF8.self)
        let size = Self.uint32(bytes, at: offset + 4)
        let payloadStart = offset + 8
        let (payloadEnd, overflow) = payloadStart.addingReportingOverflow(size)
        guard !overflow, payloadEnd <= end else {
            throw .chunkBeyondRIFF(chunk: fourCC, offset: offset, end: payloadStart &+ size, riffEnd: end)
        }
        let chunk = WebPChunk(fourCC: fourCC, offset: offset, payload: payloadStart..<payloadEnd)
        // Odd payloads are padded to an even size; a missing pad byte at the very end is
        // tolerated, as libwebp does.
        offset = min(end, payloadEnd + (size & 1))
        return chunk
    }
}

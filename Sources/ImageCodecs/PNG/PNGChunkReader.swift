/// Walks the chunks of a PNG file, checking the signature, every chunk's framing and CRC-32.
struct PNGChunkReader {
    /// The eight bytes every PNG file starts with.
    static let signature: [UInt8] = [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]

    private let bytes: UnsafeRawBufferPointer
    private var offset: Int

    /// Checks the signature and positions the reader at the first chunk.
    ///
    /// - Parameter bytes: The whole file.
    /// - Throws: ``PNGError/badSignature`` if the file does not start with the PNG signature;
    ///   ``PNGError/truncated(offset:)`` if it is a prefix of the signature.
    init(bytes: UnsafeRawBufferPointer) throws(PNGError) {
        for (index, expected) in Self.signature.enumerated() {
            guard index < bytes.count else { throw .truncated(offset: 0) }
            guard bytes[index] == expected else { throw .badSignature }
        }
        self.bytes = bytes
        offset = Self.signature.count
    }

    /// Reads the next chunk and verifies its CRC.
    ///
    /// A critical chunk with a CRC mismatch is an error; an ancillary one is returned with
    /// ``PNGChunk/hasValidChecksum`` `false` (libpng's default: warn and drop the chunk). It is
    /// still a chunk, for the chunk order: it ends a run of IDAT chunks, for example.
    ///
    /// - Parameters:
    ///   - deferredType: A chunk of this type is returned without checking its CRC, with
    ///     ``PNGChunk/isChecksumDeferred`` set: the caller checks it later, as the IDAT chunks'
    ///     are checked while they are inflated (see ``CRC32Lane``). Defaults to none.
    ///   - otherDeferredType: A second such type (an APNG's fdAT). Defaults to none.
    /// - Returns: The chunk, or `nil` at the end of the file.
    /// - Throws: ``PNGError/truncated(offset:)``, ``PNGError/invalidChunkLength(offset:length:)``,
    ///   ``PNGError/invalidChunkType(offset:type:)``, or ``PNGError/checksumMismatch(chunk:declared:computed:)``
    ///   for a critical chunk.
    mutating func next(deferringChecksumOf deferredType: UInt32? = nil, and otherDeferredType: UInt32? = nil)
        throws(PNGError) -> PNGChunk?
    {
        let start = offset
        let available = bytes.count - start
        guard available > 0 else { return nil }
        guard available >= 8 else { throw .truncated(offset: start) }
        let length = readBigEndian(at: start)
        let type = readBigEndian(at: start + 4)
        guard length <= 0x7FFF_FFFF else { throw .invalidChunkLength(offset: start, length: length) }
        for shift in stride(from: 24, through: 0, by: -8) {
            let letter = UInt8(truncatingIfNeeded: type >> UInt32(shift)) | 0x20
            guard letter >= 0x61, letter <= 0x7A else {
                throw .invalidChunkType(offset: start, type: PNGChunk.name(of: type))
            }
        }
        // 12 bytes of framing: length, type, CRC. Both terms fit in Int: length < 2^31.
        guard available - 12 >= Int(length) else { throw .truncated(offset: start) }
        let dataStart = start + 8
        let dataEnd = dataStart + Int(length)
        let checksummed = UnsafeRawBufferPointer(rebasing: bytes[(start + 4)..<dataEnd])
        var chunk = PNGChunk(
            type: type, data: UnsafeRawBufferPointer(rebasing: bytes[dataStart..<dataEnd]), offset: start,
            checksummedBytes: checksummed
        )
        offset = dataEnd + 4
        guard type != deferredType, type != otherDeferredType else {
            chunk.isChecksumDeferred = true
            return chunk
        }
        let declared = readBigEndian(at: dataEnd)
        let computed = CRC32.checksum(checksummed)
        if declared != computed {
            guard !chunk.isCritical else {
                throw .checksumMismatch(chunk: chunk.name, declared: declared, computed: computed)
            }
            chunk.hasValidChecksum = false
        }
        return chunk
    }

    private func readBigEndian(at offset: Int) -> UInt32 {
        UInt32(bigEndian: bytes.loadUnaligned(fromByteOffset: offset, as: UInt32.self))
    }
}

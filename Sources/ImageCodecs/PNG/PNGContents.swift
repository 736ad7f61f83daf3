/// The chunks of a PNG file that decoding needs, read in one pass that judges each chunk the way
/// libpng 1.6 does with its default settings.
///
/// Critical chunks are strict: a bad CRC, a missing or misplaced IHDR, PLTE or IDAT, a second
/// IHDR or PLTE, a palette of a bad length in a palette image, an empty palette, or an unknown
/// critical chunk is an error. A malformed or misplaced ancillary chunk is dropped and the image
/// decoded, where libpng only warns:
///
/// | chunk                                                   | treated as                     |
/// |---------------------------------------------------------|--------------------------------|
/// | any ancillary chunk with a bad CRC                      | absent                         |
/// | tRNS of the wrong length, or longer than the palette    | absent                         |
/// | tRNS before PLTE in a palette image, or after IDAT      | absent                         |
/// | a second tRNS                                           | absent (the first counts)      |
/// | tRNS in an image with an alpha channel                  | absent                         |
/// | tRNS before PLTE in an RGB image                        | cancelled by the PLTE          |
/// | PLTE in a gray image, PLTE of a bad length in RGB(A)    | absent (it is only a suggestion) |
/// | PLTE after IDAT in an RGB(A) or gray image              | absent                         |
/// | IDAT chunks after the first run of them                 | absent                         |
///
/// An ancillary chunk libpng does not know is skipped before IHDR too; any other chunk there is
/// an error. A palette with more entries than the bit depth can index is cut to that many before
/// tRNS is judged. Other ancillary chunks are skipped (no gamma or color correction); anything after
/// IEND is ignored.
struct PNGContents {
    let header: PNGHeader
    /// The PLTE entries, 3 bytes (red, green, blue) each, at most `1 << bitDepth` of them; empty
    /// unless the image uses a palette.
    let palette: [UInt8]
    /// The tRNS data as stored (palette alphas or a 16-bit key color), or `nil` if absent or
    /// ignored.
    let transparency: [UInt8]?
    /// The data of the first run of consecutive IDAT chunks in file order; together they form
    /// one zlib stream.
    let imageData: [UnsafeRawBufferPointer]
    /// The total bytes of ``imageData``.
    let imageDataCount: Int
    /// What the CRC-32 of each chunk of ``imageData`` covers (its type and data, followed by the
    /// stored CRC-32), for the checks this reading leaves to the decode: see
    /// ``checkingImageData(_:)``.
    let imageDataChecksumRanges: [UnsafeRawBufferPointer]

    /// Reads the chunks of a file.
    ///
    /// - Parameters:
    ///   - bytes: The whole file; ``imageData`` points into it.
    ///   - checkHeader: Called with the header before any other chunk is read, so that limits
    ///     reject a huge image before anything is allocated for it.
    /// The CRC-32s of the image data's chunks are not checked here but while the data is
    /// inflated (see ``checkingImageData(_:)``), unless another error comes after them: that
    /// error is reported only if they match, as in a reading that checks every chunk in order.
    ///
    /// - Throws: ``PNGError`` if the signature, a chunk's framing, a critical chunk's CRC (but the
    ///   image data's), the header, the order of the critical chunks or a palette image's PLTE is
    ///   invalid, or a required chunk is missing.
    init(
        reading bytes: UnsafeRawBufferPointer,
        checkHeader: (PNGHeader) throws(PNGError) -> Void
    ) throws(PNGError) {
        var reader = try PNGChunkReader(bytes: bytes)
        var first = try reader.next()
        // libpng skips an ancillary chunk it does not know even before IHDR.
        while let chunk = first, !chunk.isCritical, !PNGChunk.knownToLibpng.contains(chunk.type) {
            first = try reader.next()
        }
        guard let first, first.type == PNGChunk.ihdr else { throw .missingChunk("IHDR") }
        let header = try PNGHeader(parsing: first.data)
        try checkHeader(header)

        var state = State(header: header)
        do {
            try Self.readChunks(after: first, from: &reader, into: &state)
        } catch {
            // The image data's chunks come before the chunk that failed.
            var unchecked = CRC32Lane(ranges: state.imageDataChecksumRanges)
            try Self.check(&unchecked)
            throw error
        }
        self.header = header
        palette = state.palette ?? []
        transparency = state.transparency
        imageData = state.imageData
        imageDataCount = state.imageDataCount
        imageDataChecksumRanges = state.imageDataChecksumRanges
    }

    /// Reads the chunks after IHDR up to IEND.
    private static func readChunks(
        after first: PNGChunk, from reader: inout PNGChunkReader, into state: inout State
    ) throws(PNGError) {
        while true {
            // The first run of IDAT chunks is checked while it is inflated.
            let deferredType = state.imageDataEnded ? nil : PNGChunk.idat
            guard let chunk = try reader.next(deferringChecksumOf: deferredType) else {
                throw .missingChunk("IEND")
            }
            if chunk.isChecksumDeferred { state.imageDataChecksumRanges.append(chunk.checksummedBytes) }
            switch chunk.type {
            case PNGChunk.iend:
                guard !state.imageData.isEmpty else { throw .missingChunk("IDAT") }
                return
            case PNGChunk.idat:
                try state.readImageData(chunk)
            case PNGChunk.ihdr:
                throw .chunkOrder(chunk: chunk.name, after: first.name)
            case PNGChunk.plte:
                try state.readPalette(chunk)
            case PNGChunk.trns:
                state.readTransparency(chunk)
            default:
                if chunk.isCritical { throw .unknownCriticalChunk(chunk.name) }
            }
            if !state.imageData.isEmpty, chunk.type != PNGChunk.idat { state.imageDataEnded = true }
        }
    }

    /// What the chunks read so far established.
    private struct State {
        let header: PNGHeader
        /// The palette of a palette image, cut to what the bit depth can index.
        var palette: [UInt8]?
        /// Whether a PLTE chunk came before the first IDAT, used or not (libpng's
        /// `PNG_HAVE_PLTE`): a second one is an error.
        var sawPalette = false
        var transparency: [UInt8]?
        /// Whether a tRNS chunk was accepted, even if a later PLTE cancelled it: any further
        /// tRNS is a duplicate.
        var acceptedTransparency = false
        var imageData: [UnsafeRawBufferPointer] = []
        var imageDataCount = 0
        /// The checksummed bytes of the image data's chunks, whose CRC-32s are not checked yet.
        var imageDataChecksumRanges: [UnsafeRawBufferPointer] = []
        /// Whether a chunk other than IDAT followed the first IDAT.
        var imageDataEnded = false

        init(header: PNGHeader) {
            self.header = header
        }

        mutating func readImageData(_ chunk: PNGChunk) throws(PNGError) {
            // Only the first run is image data; libpng ignores IDAT chunks after it.
            guard !imageDataEnded else { return }
            if imageData.isEmpty, header.colorType == .palette, palette == nil { throw .missingChunk("PLTE") }
            imageData.append(chunk.data)
            imageDataCount += chunk.data.count
        }

        /// Reads PLTE: whole entries, 1 to 256 of them, in a palette image; elsewhere it is only a
        /// suggestion, ignored when malformed (but an empty one is an error, as in libpng).
        mutating func readPalette(_ chunk: PNGChunk) throws(PNGError) {
            if sawPalette { throw .chunkOrder(chunk: chunk.name, after: chunk.name) }
            guard imageData.isEmpty else { return }
            sawPalette = true
            let byteCount = chunk.data.count
            switch header.colorType {
            case .gray, .grayAlpha:
                return
            case .palette:
                guard byteCount % 3 == 0, byteCount <= 768 else { throw .invalidPalette(byteCount: byteCount) }
            case .rgb, .rgba:
                guard byteCount % 3 == 0, byteCount <= 768 else { return }
            }
            guard byteCount > 0 else { throw .invalidPalette(byteCount: byteCount) }
            if header.colorType == .palette {
                let usable = min(byteCount / 3, 1 << header.bitDepth)
                palette = Array(chunk.data.prefix(3 * usable))
            }
            // tRNS must follow PLTE; libpng cancels an earlier one.
            transparency = nil
        }

        /// Reads tRNS, keeping it only if it fits the color type and comes where it should.
        mutating func readTransparency(_ chunk: PNGChunk) {
            guard chunk.hasValidChecksum, imageData.isEmpty, !acceptedTransparency else { return }
            let byteCount = chunk.data.count
            switch header.colorType {
            case .gray:
                guard byteCount == 2 else { return }
            case .rgb:
                guard byteCount == 6 else { return }
            case .palette:
                guard let palette, byteCount >= 1, byteCount <= palette.count / 3 else { return }
            case .grayAlpha, .rgba:
                return
            }
            transparency = Array(chunk.data)
            acceptedTransparency = true
        }
    }
}

/// The chunks of a PNG file that decoding needs, read in one pass that also enforces the
/// chunk order the PNG specification requires (section 5.6).
///
/// Ancillary chunks other than tRNS are skipped (no gamma or color correction), but their CRC
/// is verified like every chunk's. Where libpng only warns and every browser shows the image, the
/// superfluous chunk is ignored rather than rejected: PLTE in a gray image, tRNS in an image with
/// an alpha channel. Anything after IEND is ignored.
struct PNGContents {
    let header: PNGHeader
    /// The PLTE entries, 3 bytes (red, green, blue) each; empty if the file has none.
    let palette: [UInt8]
    /// The tRNS data as stored (palette alphas or a 16-bit key color), or `nil` if absent or
    /// ignored.
    let transparency: [UInt8]?
    /// The data of the IDAT chunks in file order; together they form one zlib stream.
    let imageData: [UnsafeRawBufferPointer]
    /// The total bytes of ``imageData``.
    let imageDataCount: Int

    /// Reads the chunks of a file.
    ///
    /// - Parameters:
    ///   - bytes: The whole file; ``imageData`` points into it.
    ///   - checkHeader: Called with the header before any other chunk is read, so that limits
    ///     reject a huge image before anything is allocated for it.
    /// - Throws: ``PNGError`` if the signature, a chunk's framing or CRC, the header, the chunk
    ///   order, PLTE or tRNS is invalid, or a required chunk is missing.
    init(
        reading bytes: UnsafeRawBufferPointer,
        checkHeader: (PNGHeader) throws(PNGError) -> Void
    ) throws(PNGError) {
        var reader = try PNGChunkReader(bytes: bytes)
        guard let first = try reader.next(), first.type == PNGChunk.ihdr else { throw .missingChunk("IHDR") }
        let header = try PNGHeader(parsing: first.data)
        try checkHeader(header)

        var palette: [UInt8]?
        var transparency: [UInt8]?
        var imageData: [UnsafeRawBufferPointer] = []
        var imageDataCount = 0
        var previous = first
        var imageDataEnded = false
        while true {
            guard let chunk = try reader.next() else { throw .missingChunk("IEND") }
            switch chunk.type {
            case PNGChunk.iend:
                guard !imageData.isEmpty else { throw .missingChunk("IDAT") }
                guard header.colorType != .palette || palette != nil else { throw .missingChunk("PLTE") }
                self.header = header
                self.palette = palette ?? []
                self.transparency = transparency
                self.imageData = imageData
                self.imageDataCount = imageDataCount
                return
            case PNGChunk.idat:
                guard !imageDataEnded else { throw .chunkOrder(chunk: chunk.name, after: previous.name) }
                if imageData.isEmpty, header.colorType == .palette, palette == nil {
                    throw .missingChunk("PLTE")
                }
                imageData.append(chunk.data)
                imageDataCount += chunk.data.count
            case PNGChunk.ihdr:
                throw .chunkOrder(chunk: chunk.name, after: first.name)
            case PNGChunk.plte:
                if !imageData.isEmpty { throw .chunkOrder(chunk: chunk.name, after: "IDAT") }
                if palette != nil { throw .chunkOrder(chunk: chunk.name, after: chunk.name) }
                if transparency != nil { throw .chunkOrder(chunk: chunk.name, after: "tRNS") }
                palette = try Self.readPalette(chunk.data, header: header)
            case PNGChunk.trns:
                if !imageData.isEmpty { throw .chunkOrder(chunk: chunk.name, after: "IDAT") }
                if transparency != nil { throw .chunkOrder(chunk: chunk.name, after: chunk.name) }
                transparency = try Self.readTransparency(chunk.data, header: header, palette: palette)
            default:
                if chunk.isCritical { throw .unknownCriticalChunk(chunk.name) }
            }
            if !imageData.isEmpty, chunk.type != PNGChunk.idat { imageDataEnded = true }
            previous = chunk
        }
    }

    /// Validates PLTE data: whole entries, 1 to 256 of them.
    ///
    /// Gray images may not have a palette; theirs is ignored. A palette with more entries than
    /// the bit depth can index is accepted (the extra entries are unused), as libpng does.
    private static func readPalette(_ data: UnsafeRawBufferPointer, header: PNGHeader) throws(PNGError) -> [UInt8] {
        guard data.count % 3 == 0, (3...768).contains(data.count) else {
            throw .invalidPalette(byteCount: data.count)
        }
        switch header.colorType {
        case .gray, .grayAlpha: return []
        case .rgb, .rgba, .palette: return Array(data)
        }
    }

    /// Validates tRNS data for the color type.
    ///
    /// - Returns: The data, or `nil` for color types with an alpha channel, which may not have
    ///   tRNS and whose tRNS is ignored.
    private static func readTransparency(
        _ data: UnsafeRawBufferPointer, header: PNGHeader, palette: [UInt8]?
    ) throws(PNGError) -> [UInt8]? {
        switch header.colorType {
        case .gray:
            guard data.count == 2 else { throw .invalidTransparency(byteCount: data.count) }
        case .rgb:
            guard data.count == 6 else { throw .invalidTransparency(byteCount: data.count) }
        case .palette:
            guard let palette else { throw .missingChunk("PLTE") }
            guard data.count <= palette.count / 3 else { throw .invalidTransparency(byteCount: data.count) }
        case .grayAlpha, .rgba:
            return nil
        }
        return Array(data)
    }
}

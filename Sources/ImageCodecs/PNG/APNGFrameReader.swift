import Foundation

/// Decodes an APNG's frames for an ``AnimationFrameCursor``: each frame's zlib stream (the
/// `IDAT` chunks for the default image, its `fdAT` chunks otherwise) inflated, unfiltered and
/// converted as ``PNGDecoder`` decodes a still image of the frame's size, then widened to RGBA8
/// and composed onto the canvas a row at a time.
///
/// A non-interlaced frame is streamed: beyond the canvas it holds the streaming inflater's
/// buffers and a few rows of the frame's width; one of at most 256 KiB of filtered data is
/// inflated whole instead, as the still decoder does with small images. An interlaced frame (each frame is Adam7 at its
/// own size) is inflated whole into a buffer of its filtered size and reconstructed into one of
/// its pixels.
///
/// Damage: the last frame of a file cut short draws the rows its data holds (an interlaced one
/// draws nothing) and is reported damaged, as is the last frame when `acTL` declares another
/// frame count than the file has; a strict reader throws instead.
struct APNGFrameReader: AnimationFrameReading {
    /// The file; the ranges below index it.
    let data: Data
    /// The canvas's header: the colour type, bit depth and interlacing every frame shares.
    let header: PNGHeader
    /// The conversion of a reconstructed row (palette, tRNS) to the still decoder's format.
    let expansion: PixelExpansion
    let frames: [APNGStructure.Frame]
    let defaultImageIsFirstFrame: Bool
    /// The `IDAT` chunks' data, and what their CRC-32s cover (checked as they are inflated).
    let imageDataRanges: [Range<Int>]
    let imageDataChecksumRanges: [Range<Int>]
    /// Whether the last frame is reported damaged (file cut short, frame count not `acTL`'s).
    let lastFrameIsDamaged: Bool
    let isStrict: Bool
    /// The most filtered bytes a frame may have to be inflated whole rather than streamed
    /// (``PNGDecoder``'s limit, which tests lower to stream every frame).
    let wholeInflationLimit: Int

    func composeFrame(_ index: Int, of info: AnimationInfo, onto canvas: inout AnimationCanvas)
        throws(BitmapDecoderError) -> Bool
    {
        let isLast = index == frames.count - 1
        do throws(PNGError) {
            let result = try data.withUnsafeBytes { bytes in
                Result(typedCatching: { () throws(PNGError) -> InflateError? in
                    try compose(index, info: info.frames[index], bytes: bytes, canvas: &canvas)
                })
            }.typedGet()
            guard let failure = result else { return isLast && lastFrameIsDamaged }
            // Only the data a cut goes through is forgiven; other broken data is an error.
            guard isLast, lastFrameIsDamaged, !isStrict else { throw PNGError.frameData(frame: index, failure) }
            return true
        } catch {
            throw .png(error)
        }
    }

    /// Inflates frame `index`, draws its rows, and returns the error that stopped its data early.
    private func compose(
        _ index: Int, info: AnimationFrameInfo, bytes: UnsafeRawBufferPointer, canvas: inout AnimationCanvas
    ) throws(PNGError) -> InflateError? {
        let isDefault = index == 0 && defaultImageIsFirstFrame
        // The frame a cut goes through is streamed, so the rows before the cut can be drawn.
        let mayBeCut = lastFrameIsDamaged && index == frames.count - 1
        let ranges = isDefault ? imageDataRanges : frames[index].dataRanges
        let pieces = ranges.map { UnsafeRawBufferPointer(rebasing: bytes[$0]) }
        let checksumRanges = isDefault ? imageDataChecksumRanges : frames[index].checksumRanges
        var lane = CRC32Lane(ranges: checksumRanges.map { UnsafeRawBufferPointer(rebasing: bytes[$0]) })
        let chunkName = isDefault ? "IDAT" : "fdAT"
        let frameHeader = PNGHeader(frameOf: header, width: info.width, height: info.height)
        let passes = PNGPass.passes(of: frameHeader)
        let filteredCount = passes.reduce(0) { $0 + $1.filteredByteCount }
        // Deflate expands at most 1032:1: data that cannot hold the frame is not inflated.
        let compressedCount = pieces.reduce(0) { $0 + $1.count }
        let (possibleCount, overflow) = compressedCount.multipliedReportingOverflow(by: 1032)
        guard overflow || filteredCount <= possibleCount else {
            try Self.check(&lane, chunk: chunkName)
            return .tooLittleData(expected: filteredCount, actual: 0)
        }
        let rgba = UnsafeMutablePointer<UInt8>.allocate(capacity: info.width * 4)
        defer { rgba.deallocate() }
        let draw = { (row: UnsafePointer<UInt8>, y: Int, canvas: inout AnimationCanvas) in
            let converted = expansion.format == .rgba8 ? row : Self.widen(row, expansion.format, info.width, rgba)
            canvas.composeRow(UnsafeBufferPointer(start: converted, count: info.width * 4), at: y, of: info)
        }
        var inflater = StreamingInflater(pieces: pieces, expectedCount: filteredCount, checksumLane: lane)
        var failure: InflateError?
        if header.isInterlaced {
            let filtered = UnsafeMutablePointer<UInt8>.allocate(capacity: filteredCount + Inflater.outputSlack)
            defer { filtered.deallocate() }
            var written = 0
            while failure == nil {
                let chunk: UnsafeBufferPointer<UInt8>?
                do throws(InflateError) {
                    chunk = try inflater.next()
                } catch {
                    failure = error
                    chunk = inflater.salvage()
                }
                guard let chunk, let base = chunk.baseAddress else { break }
                (filtered + written).update(from: base, count: chunk.count)
                written += chunk.count
            }
            lane = inflater.checksumLane
            try Self.check(&lane, chunk: chunkName)
            // A cut Adam7 frame has holes in every row: it draws nothing.
            guard failure == nil, written == filteredCount else { return failure }
            (filtered + filteredCount).initialize(repeating: 0, count: Inflater.outputSlack)
            try PNGDecoder.checkFilterTypes(filtered, passes: passes)
            let rowCount = info.width * expansion.format.bytesPerPixel
            let pixels = UnsafeMutablePointer<UInt8>.allocate(capacity: rowCount * info.height)
            defer { pixels.deallocate() }
            PNGInterlacedReconstruction(header: frameHeader, passes: passes, expansion: expansion)
                .reconstruct(filtered, into: pixels)
            for y in 0..<info.height { draw(pixels + y * rowCount, y, &canvas) }
            return nil
        }
        // A frame that sets every pixel and is not cut starts on a new buffer rather than a copy
        // of the canvas; one of whole canvas rows in RGBA8 is unfiltered straight into them.
        if !mayBeCut, info.blend == .source, canvas.isCovered(by: info) { canvas.startAfresh(for: info) }
        let stride = info.width * 4
        let inPlace = { (origin: UnsafeMutablePointer<UInt8>) throws(PNGError) -> InflateError? in
            try reconstructRows(
                info, frameHeader, pieces, compressedCount, filteredCount, &lane, &inflater, chunkName, mayBeCut,
                outputRow: { y, _ in origin + y * stride }, rowFinished: { _ in })
        }
        if expansion.format == .rgba8,
            let result = canvas.withWholeRows(
                of: info,
                { origin in
                    origin.map { origin in Result(typedCatching: { () throws(PNGError) in try inPlace(origin) }) }
                })
        {
            return try result.typedGet()
        }
        let converted = UnsafeMutablePointer<UInt8>.allocate(capacity: info.width * expansion.format.bytesPerPixel)
        defer { converted.deallocate() }
        var y = 0
        return try reconstructRows(
            info, frameHeader, pieces, compressedCount, filteredCount, &lane, &inflater, chunkName, mayBeCut,
            outputRow: { _, rowBuffer in rowBuffer ?? converted },
            rowFinished: { row in
                draw(row, y, &canvas)
                y += 1
            })
    }

    /// Inflates a non-interlaced frame — whole when it is small and not cut, else streamed — and
    /// reconstructs its rows, each into `outputRow(y, rowBuffer)` and then handed to `rowFinished`.
    ///
    /// - Returns: The error that stopped the data early.
    private func reconstructRows(
        _ info: AnimationFrameInfo, _ frameHeader: PNGHeader, _ pieces: [UnsafeRawBufferPointer],
        _ compressedCount: Int,
        _ filteredCount: Int, _ lane: inout CRC32Lane, _ inflater: inout StreamingInflater, _ chunkName: String,
        _ mayBeCut: Bool,
        outputRow: (_ y: Int, _ rowBuffer: UnsafeMutablePointer<UInt8>?) -> UnsafeMutablePointer<UInt8>,
        rowFinished: (UnsafePointer<UInt8>) -> Void
    ) throws(PNGError) -> InflateError? {
        if filteredCount <= wholeInflationLimit, !mayBeCut {
            // As the still decoder does for a small image: one inflation, no streaming buffers.
            let filtered = UnsafeMutablePointer<UInt8>.allocate(capacity: filteredCount + Inflater.outputSlack)
            defer { filtered.deallocate() }
            if let failure = try Self.inflateWhole(
                pieces, count: compressedCount, into: filtered, filteredCount, &lane, chunk: chunkName)
            {
                return failure
            }
            var isInflated = false
            try PNGRowStream.reconstruct(
                frameHeader, expansion: expansion,
                nextChunk: { () throws(PNGError) -> UnsafeBufferPointer<UInt8>? in
                    guard !isInflated else { return nil }
                    isInflated = true
                    return UnsafeBufferPointer(start: filtered, count: filteredCount)
                },
                outputRow: outputRow, rowFinished: rowFinished)
            return nil
        }
        var failure: InflateError?
        do throws(PNGError) {
            try PNGRowStream.reconstruct(
                frameHeader, expansion: expansion,
                nextChunk: { () throws(PNGError) -> UnsafeBufferPointer<UInt8>? in
                    guard failure == nil else { return nil }
                    do throws(InflateError) {
                        return try inflater.next()
                    } catch {
                        // The rows decoded before the stream broke are drawn.
                        failure = error
                        return inflater.salvage()
                    }
                },
                outputRow: outputRow, rowFinished: rowFinished)
        } catch {
            lane = inflater.checksumLane
            if error != .cancelled { try Self.check(&lane, chunk: chunkName) }
            throw error
        }
        lane = inflater.checksumLane
        try Self.check(&lane, chunk: chunkName)
        return failure
    }

    /// Joins a frame's data and inflates it whole into `filtered`, checking the lane's CRC-32s.
    ///
    /// - Returns: The error that stopped the data, or nil.
    private static func inflateWhole(
        _ pieces: [UnsafeRawBufferPointer], count compressedCount: Int, into filtered: UnsafeMutablePointer<UInt8>,
        _ filteredCount: Int, _ lane: inout CRC32Lane, chunk chunkName: String
    ) throws(PNGError) -> InflateError? {
        let compressed = UnsafeMutablePointer<UInt8>.allocate(capacity: compressedCount + BitReader.padding)
        defer { compressed.deallocate() }
        var offset = 0
        for piece in pieces {
            guard let base = piece.baseAddress else { continue }
            UnsafeMutableRawPointer(compressed + offset).copyMemory(from: base, byteCount: piece.count)
            offset += piece.count
        }
        (compressed + compressedCount).initialize(repeating: 0, count: BitReader.padding)
        var failure: InflateError?
        let shouldStop = DecodeCancellation.current.get().map { cancellation in { cancellation.shouldStop() } }
        var completed = true
        do throws(InflateError) {
            completed = try Inflater.inflate(
                zlib: compressed, count: compressedCount, into: filtered, count: filteredCount, surplus: .discard,
                checksumLane: &lane, shouldStop: shouldStop)
        } catch {
            failure = error
        }
        try Self.check(&lane, chunk: chunkName)
        if !completed { throw .cancelled }
        return failure
    }

    /// Finishes a lane's CRC-32 checks of the frame's chunks.
    ///
    /// - Throws: ``PNGError/checksumMismatch(chunk:declared:computed:)`` naming `chunk` (`IDAT`
    ///   or `fdAT`) at the first mismatch.
    private static func check(_ lane: inout CRC32Lane, chunk: String) throws(PNGError) {
        if let mismatch = lane.finish() {
            throw .checksumMismatch(chunk: chunk, declared: mismatch.declared, computed: mismatch.computed)
        }
    }

    /// Widens a gray or gray + alpha row to RGBA8 (R = G = B = gray), as a canvas needs.
    private static func widen(
        _ row: UnsafePointer<UInt8>, _ format: PixelFormat, _ count: Int, _ output: UnsafeMutablePointer<UInt8>
    ) -> UnsafePointer<UInt8> {
        let hasAlpha = format == .grayAlpha8
        for x in 0..<count {
            let gray = hasAlpha ? row[2 * x] : row[x]
            output[4 * x] = gray
            output[4 * x + 1] = gray
            output[4 * x + 2] = gray
            output[4 * x + 3] = hasAlpha ? row[2 * x + 1] : 255
        }
        return UnsafePointer(output)
    }
}

extension PNGHeader {
    /// The header of one APNG frame: the canvas's colour type, bit depth and interlacing at the
    /// frame's size (checked to lie inside the canvas).
    init(frameOf canvas: PNGHeader, width: Int, height: Int) {
        self.width = width
        self.height = height
        bitDepth = canvas.bitDepth
        colorType = canvas.colorType
        isInterlaced = canvas.isInterlaced
    }
}

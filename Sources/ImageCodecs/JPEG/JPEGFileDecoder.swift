/// Reads a whole JPEG file: the tables, the frame header and every scan, leaving the output
/// pixels.
///
/// A sequential file whose first scan holds every component (nearly every baseline photo) is
/// streamed: each MCU row is transformed and converted to output rows as soon as it is decoded,
/// so only one MCU row of coefficients and three of samples exist at a time. Other files
/// (progressive, or one scan per component) keep the coefficients of the whole image until the
/// last scan, 2 bytes per sample, and are then transformed and converted MCU row by MCU row the
/// same way.
struct JPEGFileDecoder {
    /// The most scans a file may have. libjpeg-turbo 3's TurboJPEG sets 500 by default; every
    /// scan visits each of its blocks, so a small file with thousands of tiny scans could
    /// otherwise take very long.
    static let maximumScanCount = 1000

    var reader: JPEGSegmentReader
    let maximumPixelCount: Int
    let maximumDimension: Int
    let scaleDenominator: Int
    /// Whether damaged scan data is decoded as libjpeg-turbo decodes it instead of throwing.
    let recovers: Bool
    /// The first defect recovered from: the error a strict decoder would have thrown.
    private(set) var defect: JPEGError?
    /// The output pixels, once the image is complete.
    var pixels: [UInt8]?

    var frame: JPEGFrame?
    private var coefficients: JPEGCoefficientBuffer?
    /// Quantization tables as defined so far, natural order, as libjpeg's 16-bit multipliers.
    var quantizationTables: [[Int32]?] = [nil, nil, nil, nil]
    /// The table each component latched at its first scan (libjpeg's `latch_quant_tables`).
    var componentQuantization: [[Int32]?] = []
    /// Huffman tables as defined so far. A table whose code lengths are invalid is kept as the
    /// error a scan binding it throws: libjpeg checks the code space only then (jdhuff.c), so a
    /// bad table no scan uses is harmless.
    var dcTables: [Result<JPEGHuffmanTable, JPEGError>?] = [nil, nil, nil, nil]
    var acTables: [Result<JPEGHuffmanTable, JPEGError>?] = [nil, nil, nil, nil]
    private var restartInterval = 0
    var scanCount = 0
    var componentScanned: [Bool] = []
    /// What the progressive scans so far have told of each component's first coefficients.
    var coefficientBits = JPEGCoefficientBits(componentCount: 0)
    /// libjpeg's `last_good_iMCU_row` as the last decoded scan left it.
    var lastGoodIMCURow = 0
    /// The scans skipped so far (``skipsScan(_:frame:)``): their decoders and where their data
    /// starts, to find where the last one runs out of data if block smoothing needs it.
    var skippedScans: [(decoder: JPEGScanDecoder, position: Int)] = []
    var lastScanSkipped = false
    private var sawJFIF = false
    private var adobeTransform: Int?
    private(set) var orientation = JPEGOrientation.upright
    /// The most bytes the decode may hold at its peak (see ``JPEGDecodePeak``).
    private let maximumDecodingBytes: Int
    /// The bytes of the thumbnail the output is averaged to afterwards, counted in the peak.
    private let thumbnailBytes: Int
    /// The components the first scan holds, once its header is read.
    private(set) var firstScanComponentCount: Int?
    /// Whether the peak checked at the first scan counted a turned or flipped copy.
    private var peakCountedReorienting = false

    init(
        bytes: UnsafePointer<UInt8>, count: Int, maximumPixelCount: Int, maximumDimension: Int,
        scaleDenominator: Int = 1, recovers: Bool = false, maximumDecodingBytes: Int = Int.max,
        thumbnailBytes: Int = 0
    ) throws(JPEGError) {
        reader = try JPEGSegmentReader(bytes: bytes, count: count)
        self.scaleDenominator = scaleDenominator
        self.recovers = recovers
        self.maximumPixelCount = maximumPixelCount
        self.maximumDimension = maximumDimension
        self.maximumDecodingBytes = maximumDecodingBytes
        self.thumbnailBytes = thumbnailBytes
    }

    /// The peak of this decode (see ``JPEGDecodePeak``), once the frame and the first scan
    /// header are read; nil before.
    private var peakBytes: Int? {
        guard let frame, let firstScanComponentCount else { return nil }
        return JPEGDecodePeak.bytes(
            frame: frame,
            streams: frame.process == .sequential && firstScanComponentCount == frame.components.count,
            scaleDenominator: scaleDenominator, reorients: orientation != .upright, thumbnailBytes: thumbnailBytes)
    }

    /// Throws if the peak exceeds the limit: at the first scan, before the coefficients are
    /// allocated, and again before the output is turned, if an EXIF orientation read after the
    /// first scan makes a copy the first check did not count.
    mutating func checkPeak() throws(JPEGError) {
        guard let peakBytes else { return }
        peakCountedReorienting = orientation != .upright
        guard peakBytes <= maximumDecodingBytes else {
            throw .decodeTooLarge(bytesNeeded: peakBytes, limit: maximumDecodingBytes)
        }
    }

    /// ``checkPeak()`` again, if the orientation changed since it ran.
    mutating func checkPeakBeforeReorienting() throws(JPEGError) {
        if orientation != .upright && !peakCountedReorienting { try checkPeak() }
    }

    /// Reads the file up to EOI (or its end, for a sequential file whose scans are complete).
    ///
    /// - Parameter headerOnly: Stop at the first scan header, having checked the frame.
    mutating func run(headerOnly: Bool = false) throws(JPEGError) {
        while let marker = reader.nextMarker() {
            try noteExtraneousBytes(reader.extraneousBytes, headerOnly: headerOnly)
            if recovers && componentScanned.contains(true) && reader.segmentIsCut, try readCutSegment(marker) {
                return
            }
            switch marker.code {
            case 0xD9:
                try finish(reachedEOI: true)
                return
            case 0xD8:
                throw .unexpectedMarker(marker.code, offset: marker.offset)
            case 0xD0...0xD7, 0x01:
                // Parameterless markers outside a scan: ignored, as libjpeg does.
                continue
            case 0xC0, 0xC1, 0xC2:
                guard frame == nil else { throw .unexpectedMarker(marker.code, offset: marker.offset) }
                let data = try reader.segmentData(of: marker)
                try readFrame(data, marker: marker)
            case 0xC3, 0xCB:
                throw .unsupportedProcess(.lossless(sofMarker: marker.code))
            case 0xC9, 0xCA, 0xCD, 0xCE:
                throw .unsupportedProcess(
                    marker.code >= 0xCD ? .hierarchical(marker: marker.code) : .arithmeticCoding(sofMarker: marker.code)
                )
            case 0xC5, 0xC6, 0xC7, 0xCF, 0xDE, 0xDF:
                throw .unsupportedProcess(.hierarchical(marker: marker.code))
            case 0xC4:
                try readHuffmanTables(try reader.segmentData(of: marker), marker: marker)
            case 0xDB:
                try readQuantizationTables(try reader.segmentData(of: marker), marker: marker)
            case 0xDD:
                let data = try reader.segmentData(of: marker)
                guard data.count == 2 else { throw .badSegment(marker: marker.code, offset: marker.offset) }
                restartInterval = Int(data[0]) << 8 | Int(data[1])
            case 0xDA:
                let data = try reader.segmentData(of: marker)
                if headerOnly {
                    guard frame != nil else { throw .unexpectedMarker(marker.code, offset: marker.offset) }
                    firstScanComponentCount = data.isEmpty ? nil : Int(data[0])
                    return
                }
                try readScan(data, marker: marker)
                // A streamed single-scan file is complete: what follows cannot change its pixels.
                // After damage, libjpeg-turbo still reads the markers up to EOI, and one it
                // cannot read fails the file (djpeg exits 1), so a recovered file is read on.
                if pixels != nil && defect == nil {
                    // libjpeg reads on to the next marker and warns about any bytes before it.
                    var next = reader
                    _ = next.nextMarker()
                    try noteExtraneousBytes(next.extraneousBytes, headerOnly: false)
                    return
                }
            case 0xE0:
                let data = try reader.skippableSegmentData(of: marker)
                // "JFIF\0" with at least the 14 bytes libjpeg examines. Like Adobe's, it counts
                // only before the first scan, where libjpeg fixes the colour space
                // (default_decompress_parms).
                if scanCount == 0, data.count >= 14, data[0] == 0x4A, data[1] == 0x46, data[2] == 0x49, data[3] == 0x46,
                    data[4] == 0
                {
                    sawJFIF = true
                }
            case 0xE1:
                let data = try reader.skippableSegmentData(of: marker)
                if orientation == .upright, let exif = JPEGOrientation(exifSegment: data) { orientation = exif }
            case 0xEE:
                let data = try reader.skippableSegmentData(of: marker)
                // "Adobe" with at least the 12 bytes libjpeg examines; the last is the transform.
                if scanCount == 0, data.count >= 12, data[0] == 0x41, data[1] == 0x64, data[2] == 0x6F, data[3] == 0x62,
                    data[4] == 0x65
                {
                    adobeTransform = Int(data[11])
                }
            case 0xCC:
                try JPEGArithmeticConditioning.check(try reader.segmentData(of: marker), offset: marker.offset)
            case 0xDC, 0xE2...0xED, 0xEF, 0xFE:
                // DNL, other APPn, COM: skipped.
                _ = try reader.skippableSegmentData(of: marker)
            default:
                throw .unexpectedMarker(marker.code, offset: marker.offset)
            }
        }
        try noteExtraneousBytes(reader.extraneousBytes, headerOnly: headerOnly)
        try finish(reachedEOI: false)
    }

    /// Notes bytes that belong to no segment, which libjpeg skips with a warning; a strict
    /// decoder throws, but not for the header alone (a thumbnail's size is read that way).
    private mutating func noteExtraneousBytes(
        _ extraneous: (count: Int, offset: Int), headerOnly: Bool
    ) throws(JPEGError) {
        guard extraneous.count > 0 else { return }
        let error = JPEGError.extraneousBytes(count: extraneous.count, offset: extraneous.offset)
        if !recovers && !headerOnly { throw error }
        note(error)
    }

    /// Reads a segment the file ends inside, once scan data was decoded, as libjpeg-turbo does:
    /// its file source pads the file with fake EOI markers, so a table segment is parsed with
    /// `FF D9` bytes for the missing ones (and may fail, as in libjpeg), other segments are
    /// skipped, and the image ends there with what the scans gave.
    ///
    /// - Returns: `false` for a marker that fails before its data is read (SOF, SOI, unsupported
    ///   processes): ``run(headerOnly:)`` handles it as usual.
    private mutating func readCutSegment(_ marker: JPEGSegmentReader.Marker) throws(JPEGError) -> Bool {
        switch marker.code {
        case 0xC4, 0xDB, 0xDD, 0xDA, 0xCC:
            note(.truncated(offset: marker.offset))
            let (data, next) = reader.cutSegmentData()
            let fileReader = reader
            defer { reader = fileReader }
            var failure: JPEGError?
            data.withUnsafeBytes { data in
                next.withUnsafeBufferPointer { next in
                    do throws(JPEGError) {
                        switch marker.code {
                        case 0xC4: try readHuffmanTables(data, marker: marker)
                        case 0xDB: try readQuantizationTables(data, marker: marker)
                        case 0xDD: if data.count != 2 { throw .badSegment(marker: marker.code, offset: marker.offset) }
                        case 0xCC: try JPEGArithmeticConditioning.check(data, offset: marker.offset)
                        default:
                            // A scan's data is what libjpeg reads after the header, from its fake EOIs.
                            guard let base = next.baseAddress else { return }
                            reader = JPEGSegmentReader(continuation: base, count: next.count)
                            try readScan(data, marker: marker)
                        }
                    } catch {
                        failure = error
                    }
                }
            }
            if let failure { throw failure }
        case 0xDC, 0xE0...0xEF, 0xFE:
            note(.truncated(offset: marker.offset))
            reader.position = reader.count
        default:
            return false
        }
        try finish(reachedEOI: false)
        return true
    }

    private mutating func finish(reachedEOI: Bool) throws(JPEGError) {
        if pixels != nil { return }
        guard let frame else { throw reachedEOI ? .incompleteImage : .truncated(offset: reader.count) }
        // At 1/8 every scan may have been skipped (AC scans only, which libjpeg decodes with a
        // warning): then no coefficient was stored yet.
        if recovers, componentScanned.contains(true) {
            let coefficients = self.coefficients ?? makeCoefficientBuffer(frame)
            // libjpeg-turbo's file source makes the end of the file an EOI, and its output pass
            // shows what the scans read: coefficients never decoded stay zero, and a component
            // never scanned has all-zero multipliers, so it comes out gray. Smoothing comes first:
            // a skipped last scan decoded for it reports its own defect.
            let smoothing = try blockSmoothing(frame, coefficients: coefficients)
            let complete = componentScanned.allSatisfy { $0 } && (reachedEOI || frame.process == .sequential)
            if !complete { note(reachedEOI ? .incompleteImage : .truncated(offset: reader.count)) }
            pixels = try renderCoefficients(frame: frame, coefficients: coefficients, smoothing: smoothing)
            return
        }
        guard componentScanned.allSatisfy({ $0 }) else {
            throw reachedEOI ? .incompleteImage : .truncated(offset: reader.count)
        }
        // A progressive file without EOI may lack refinement scans: that is a truncated file.
        // A sequential one whose every component was fully decoded is only missing its EOI.
        if !reachedEOI && frame.process == .progressive { throw .truncated(offset: reader.count) }
        let coefficients = self.coefficients ?? makeCoefficientBuffer(frame)
        let smoothing = try blockSmoothing(frame, coefficients: coefficients)
        pixels = try renderCoefficients(frame: frame, coefficients: coefficients, smoothing: smoothing)
    }

    private mutating func readScan(_ data: UnsafeRawBufferPointer, marker: JPEGSegmentReader.Marker) throws(JPEGError) {
        guard let frame else { throw .unexpectedMarker(marker.code, offset: marker.offset) }
        let scan = try JPEGScanHeader(segment: data, frame: frame, offset: marker.offset)
        if pixels != nil {
            // A scan after a damaged streamed one: the image is out, so only its markers count.
            reader.position = skipEntropyCodedData()
            return
        }
        scanCount += 1
        guard scanCount <= Self.maximumScanCount else { throw .badScan(offset: marker.offset) }
        if frame.process == .progressive && !coefficientBits.startScan(scan, number: scanCount) {
            // libjpeg warns "Inconsistent progression sequence" and decodes on.
            if !recovers { throw .badScan(offset: marker.offset) }
            note(.badScan(offset: marker.offset))
        }
        lastScanSkipped = false
        let tables = try bindTables(scan, frame: frame)
        for member in scan.members where componentQuantization[member.componentIndex] == nil {
            let id = frame.components[member.componentIndex].quantizationTableID
            guard id < 4, let table = quantizationTables[id] else { throw .undefinedTable(.quantization, id: id) }
            componentQuantization[member.componentIndex] = table
        }
        try checkDataSize(frame)
        if scanCount == 1 {
            firstScanComponentCount = scan.members.count
            try checkPeak()
        }
        var bits = JPEGBitReader(bytes: reader.bytes, count: reader.count, position: reader.position)
        bits.substitutesInvalidCodes = recovers
        var decoder = JPEGScanDecoder(
            frame: frame, scan: scan, tables: tables, restartInterval: restartInterval, scanOffset: marker.offset,
            recovers: recovers
        )
        // In both modes: libjpeg does not warn about FF FF 00, yet its fast decoder changes the pixels.
        decoder.emulatesFastPath =
            frame.process == .sequential && restartInterval == 0
            && JPEGHuffmanFastPathEmulator.isNeeded(bytes: reader.bytes, count: reader.count, from: reader.position)
        defer {
            if let scanDefect = decoder.defect { note(scanDefect) }
            // Checked once per scan, so the hot loop is the same in both modes.
            if bits.metInvalidCode { note(.corruptScanData(offset: marker.offset)) }
        }
        if frame.process == .sequential && scanCount == 1 && scan.members.count == frame.components.count {
            try decodeStreaming(frame: frame, decoder: &decoder, bits: &bits)
        } else if skipsScan(scan, frame: frame) {
            skippedScans.append((decoder, reader.position))
            lastScanSkipped = true
            bits = JPEGBitReader(bytes: reader.bytes, count: reader.count, position: skipEntropyCodedData())
        } else {
            let coefficients = self.coefficients ?? makeCoefficientBuffer(frame)
            self.coefficients = coefficients
            try decoder.decode(into: coefficients, reader: &bits)
            lastGoodIMCURow = decoder.lastGoodIMCURow
        }
        reader.position = bits.resumePosition
        for member in scan.members { componentScanned[member.componentIndex] = true }
    }

    /// Whether a progressive scan refines only coefficients the scaled inverse DCT never reads:
    /// AC coefficients of a component transformed at 1×1 (luma at 1/8).
    private func skipsScan(_ scan: JPEGScanHeader, frame: JPEGFrame) -> Bool {
        guard frame.process == .progressive, !scan.isDCScan, scaleDenominator == 8 else { return false }
        // With restarts, libjpeg resynchronizes past invalid markers inside the scan, which
        // skipping to the first marker would not: a recovering decoder reads such scans.
        if recovers && restartInterval > 0 { return false }
        let sizes = JPEGSamplePlanes.transformSizes(frame: frame, scaleDenominator: scaleDenominator)
        return scan.members.allSatisfy { sizes[$0.componentIndex] == 1 }
    }

    /// The position of the first marker after the scan data other than RSTn (or the file's end),
    /// found without decoding the data.
    private func skipEntropyCodedData() -> Int {
        var position = reader.position
        let bytes = reader.bytes
        while position + 1 < reader.count {
            if bytes[position] == 0xFF {
                let next = bytes[position + 1]
                if next != 0 && next != 0xFF && !(0xD0...0xD7).contains(next) { return position }
                position += next == 0xFF ? 1 : 2
            } else {
                position += 1
            }
        }
        return reader.count
    }

    /// The most pixels a frame may have when its data is too short to cover it, in the default
    /// (recovering) mode: 1 Mi, at most 4 MiB of RGBA.
    ///
    /// A truncated photo of that size still shows its top part, and decoding it allocates no more
    /// than any ordinary image would. Above it, data shorter than one bit per block is either a
    /// decompression bomb (a 689-byte file declaring 60000 × 60000) or a file cut so early that
    /// almost nothing of it would show, so it is refused before the pixels are allocated.
    static let maximumUncoveredPixelCount = 1 << 20

    /// Checks, before anything large is allocated, that the data after the first scan header
    /// could hold the frame (always when strict; for frames above
    /// ``maximumUncoveredPixelCount`` when recovering).
    private func checkDataSize(_ frame: JPEGFrame) throws(JPEGError) {
        guard scanCount == 1 else { return }
        // Every block costs at least one bit (its DC code) somewhere after this scan header.
        let blocks = frame.components.reduce(0) { $0 + $1.widthInBlocks * $1.heightInBlocks }
        let remaining = reader.count - reader.position
        guard blocks > remaining * 8 else { return }
        if recovers && frame.width * frame.height <= Self.maximumUncoveredPixelCount { return }
        throw .insufficientData(blocks: blocks, bytes: remaining)
    }

    /// Keeps the first defect recovered from.
    mutating func note(_ error: JPEGError) {
        if defect == nil { defect = error }
    }

    /// The colour space of the components, decided as libjpeg's `default_decompress_parms` does.
    var colorSpace: JPEGColorConverter.ColorSpace {
        guard let frame else { return .gray }
        switch frame.components.count {
        case 1:
            return .gray
        case 3:
            if sawJFIF { return .yCbCr }
            if let adobeTransform { return adobeTransform == 0 ? .rgb : .yCbCr }
            let ids = frame.components.map(\.id)
            return ids == [0x52, 0x47, 0x42] ? .rgb : .yCbCr
        default:
            if let adobeTransform { return adobeTransform == 0 ? .cmyk : .ycck }
            return .cmyk
        }
    }
}

/// Decodes the entropy-coded data of one scan into a ``JPEGCoefficientBuffer``: sequential
/// scans (T.81 F.2) and the four kinds of progressive scans (G.1.2): DC first, DC refinement,
/// AC first, AC refinement, with restart intervals.
struct JPEGScanDecoder {
    /// The scan's Huffman tables, one DC and one AC per scan member (unused ones are `nil`).
    struct Tables {
        var dc: [JPEGHuffmanTable?]
        var ac: [JPEGHuffmanTable?]
    }

    let frame: JPEGFrame
    let scan: JPEGScanHeader
    let tables: Tables
    let restartInterval: Int
    /// Where the scan's SOS segment starts, for error offsets.
    let scanOffset: Int
    /// Whether damaged data is decoded as libjpeg decodes it instead of throwing.
    let recovers: Bool
    /// Whether the scan is decoded by ``decodeEmulatingFastPath(into:reader:onMCURow:)``.
    var emulatesFastPath = false
    /// The first defect met while recovering: the error a strict decoder would have thrown.
    private(set) var defect: JPEGError?
    /// libjpeg's `last_good_iMCU_row` once the scan is decoded: the iMCU row of the last MCU
    /// begun with data left (block smoothing treats the rows after it differently).
    var lastGoodIMCURow: Int {
        guard scan.members.count == 1 else { return lastGoodMCURow }
        return lastGoodMCURow / frame.components[scan.members[0].componentIndex].verticalSampling
    }
    var lastGoodMCURow = 0

    /// The tables' pointers per member, and the zigzag order, for the hot loops.
    private let dcPointers: [JPEGHuffmanTable.Pointers?]
    private let acPointers: [JPEGHuffmanTable.Pointers?]
    private let naturalOrder = jpegNaturalOrderTable.pointer
    private let zigzagIndices = jpegZigzagIndexTable.pointer
    /// The DC predictions of the scan members.
    private var previousDC = SIMD4<Int>()
    /// The remaining blocks of a progressive end-of-band run.
    private var endOfBandRun = 0

    init(
        frame: JPEGFrame, scan: JPEGScanHeader, tables: Tables, restartInterval: Int, scanOffset: Int,
        recovers: Bool = false
    ) {
        self.frame = frame
        self.recovers = recovers
        self.scan = scan
        self.tables = tables
        self.restartInterval = restartInterval
        self.scanOffset = scanOffset
        dcPointers = tables.dc.map { $0?.pointers }
        acPointers = tables.ac.map { $0?.pointers }
    }

    private enum Kind {
        case sequential, dcFirst, dcRefine, acFirst, acRefine
    }

    /// Decodes every MCU of the scan.
    ///
    /// When ``recovers`` is set, damage is handled as libjpeg-turbo handles it, and the first
    /// defect is kept in ``defect``: once an MCU needs more bits than its restart interval holds
    /// (the file or the interval ended early), it is decoded with zero bits and the rest of the
    /// interval is left as it was (zero coefficients in a sequential scan, gray pixels); a wrong
    /// or missing restart marker is resolved by ``JPEGBitReader/resynchronize(expected:)``.
    ///
    /// - Throws: ``JPEGError/corruptScanData(offset:)`` for an invalid code,
    ///   ``JPEGError/missingRestartMarker(expected:found:offset:)``,
    ///   ``JPEGError/truncated(offset:)`` if the data ends before the last MCU, and
    ///   ``JPEGError/cancelled`` when a store stops the load (polled once per MCU row).
    ///
    /// - Parameters:
    ///   - coefficients: The whole image's coefficients, or with `onMCURow`, one MCU row's.
    ///   - reader: The entropy-coded data.
    ///   - onMCURow: Called after each MCU row when `coefficients` holds one row only; the
    ///     buffer is cleared before the next row.
    mutating func decode(
        into coefficients: JPEGCoefficientBuffer, reader: inout JPEGBitReader, onMCURow: ((Int) -> Void)? = nil
    ) throws(JPEGError) {
        if emulatesFastPath {
            return try decodeEmulatingFastPath(into: coefficients, reader: &reader, onMCURow: onMCURow)
        }
        let streaming = onMCURow != nil
        let kind: Kind
        switch frame.process {
        case .sequential: kind = .sequential
        case .progressive:
            if scan.isDCScan {
                kind = scan.isRefinement ? .dcRefine : .dcFirst
            } else {
                kind = scan.isRefinement ? .acRefine : .acFirst
            }
        }
        let single = scan.members.count == 1
        let mcusPerLine: Int
        let mcuRows: Int
        if single {
            let component = frame.components[scan.members[0].componentIndex]
            mcusPerLine = component.widthInBlocks
            mcuRows = component.heightInBlocks
        } else {
            mcusPerLine = frame.mcusPerLine
            mcuRows = frame.mcuRows
        }
        // Each block of an MCU, read once rather than per MCU from the frame's and the buffer's
        // arrays (bounds checks, reference counting): one for a single-component scan, at most
        // 10 for an interleaved one (as JPEGScanHeader checked).
        let mcuBlocks = UnsafeMutablePointer<MCUBlock>.allocate(capacity: 10)
        defer { mcuBlocks.deallocate() }
        var mcuBlockCount = 0
        // A DC scan reads and writes only the DC coefficient (see JPEGCoefficientBuffer.dcPlanes).
        let usesDCPlanes = (kind == .dcFirst || kind == .dcRefine) && !coefficients.dcPlanes.isEmpty
        // The coefficients from one block to the next: 64, or 1 in a DC plane.
        let blockStride = usesDCPlanes ? 1 : 64
        for (memberIndex, member) in scan.members.enumerated() {
            let component = frame.components[member.componentIndex]
            let plane = (usesDCPlanes ? coefficients.dcPlanes : coefficients.planes)[member.componentIndex]
            let (horizontal, vertical) = single ? (1, 1) : (component.horizontalSampling, component.verticalSampling)
            for blockY in 0..<vertical {
                for blockX in 0..<horizontal {
                    (mcuBlocks + mcuBlockCount).initialize(
                        to: MCUBlock(
                            plane: plane, member: memberIndex,
                            offset: (blockY * component.blocksPerLine + blockX) * blockStride,
                            columnStep: horizontal * blockStride,
                            rowStep: vertical * component.blocksPerLine * blockStride))
                    mcuBlockCount += 1
                }
            }
        }
        var mcuIndex = 0
        var nextRestart = 0
        let cancellation = DecodeCancellation.current.get()
        // libjpeg's `insufficient_data`: this interval's data ran out, so its MCUs are skipped.
        var outOfData = false
        for mcuRow in 0..<mcuRows {
            if let cancellation, cancellation.shouldStop() { throw .cancelled }
            if streaming && mcuRow > 0 { coefficients.clear() }
            if restartInterval == 0 {
                try decodeRow(
                    kind, blocks: mcuBlocks, blockCount: mcuBlockCount, count: mcusPerLine, mcuRow: mcuRow,
                    rowIndex: streaming ? 0 : mcuRow, outOfData: &outOfData, reader: &reader)
                guard recovers || !reader.consumedPadding else { throw .truncated(offset: scanOffset) }
                onMCURow?(mcuRow)
                continue
            }
            for mcuColumn in 0..<mcusPerLine {
                // Before a restart marker can clear `outOfData`, as libjpeg checks it.
                if !outOfData { lastGoodMCURow = mcuRow }
                if restartInterval > 0 && mcuIndex > 0 && mcuIndex % restartInterval == 0 {
                    try restart(expected: nextRestart, outOfData: &outOfData, reader: &reader)
                    nextRestart = (nextRestart + 1) & 7
                    previousDC = SIMD4()
                    endOfBandRun = 0
                }
                mcuIndex += 1
                if outOfData { continue }
                try decodeMCU(
                    kind, blocks: mcuBlocks, blockCount: mcuBlockCount, mcuColumn: mcuColumn,
                    rowIndex: streaming ? 0 : mcuRow, reader: &reader)
                if recovers && reader.consumedPadding {
                    // This MCU was finished with zero bits; the rest of the interval stays as is.
                    outOfData = true
                    note(.truncated(offset: scanOffset))
                }
            }
            // A file cut short is noticed within a row, not after decoding zeros to the end.
            guard recovers || !reader.consumedPadding else { throw .truncated(offset: scanOffset) }
            onMCURow?(mcuRow)
        }
    }

    /// One block of a scan's MCU: its plane, its scan member, and where it lies relative to its
    /// MCU row's first block of that plane.
    private struct MCUBlock {
        let plane: UnsafeMutablePointer<Int16>
        let member: Int
        /// The block's offset in MCU column 0 of MCU row 0, in coefficients.
        let offset: Int
        /// The coefficients from one MCU column to the next.
        let columnStep: Int
        /// The coefficients from one MCU row to the next.
        let rowStep: Int
    }

    /// Decodes one MCU row of a scan without restart intervals, as the general loop of
    /// ``decode(into:reader:onMCURow:)`` does, without its restart bookkeeping of each MCU.
    ///
    /// - Parameter rowIndex: The MCU row's index in the coefficient planes: `mcuRow`, or 0 when
    ///   they hold one MCU row.
    @inline(__always)
    private mutating func decodeRow(
        _ kind: Kind, blocks: UnsafePointer<MCUBlock>, blockCount: Int, count: Int, mcuRow: Int, rowIndex: Int,
        outOfData: inout Bool, reader: inout JPEGBitReader
    ) throws(JPEGError) {
        guard !outOfData else { return }
        lastGoodMCURow = mcuRow
        for mcuColumn in 0..<count {
            try decodeMCU(
                kind, blocks: blocks, blockCount: blockCount, mcuColumn: mcuColumn, rowIndex: rowIndex, reader: &reader)
            if recovers && reader.consumedPadding {
                // This MCU was finished with zero bits; the rest of the scan stays as is.
                outOfData = true
                note(.truncated(offset: scanOffset))
                return
            }
        }
    }

    /// Moves past the restart marker due before MCU number `restartInterval * k`.
    ///
    /// Strict, it throws unless the interval's data was complete and `RST<expected>` follows;
    /// recovering, it resynchronizes as libjpeg does and clears `outOfData` only when there is
    /// data after a restart marker to decode (libjpeg's `process_restart`).
    private mutating func restart(
        expected: Int, outOfData: inout Bool, reader: inout JPEGBitReader
    ) throws(JPEGError) {
        guard recovers else {
            guard !reader.consumedPadding else { throw .truncated(offset: scanOffset) }
            let marker = reader.restart(expected: expected)
            guard marker.ok else {
                throw .missingRestartMarker(expected: expected, found: marker.found, offset: reader.position)
            }
            return
        }
        let outcome = reader.resynchronize(expected: expected)
        if outcome.found != 0xD0 + UInt8(expected) {
            note(.missingRestartMarker(expected: expected, found: outcome.found, offset: outcome.offset))
        }
        if outcome.resumed { outOfData = false }
    }

    /// Keeps the first defect met while recovering.
    mutating func note(_ error: JPEGError) {
        if defect == nil { defect = error }
    }

    @inline(__always)
    private mutating func decodeBlock(
        _ kind: Kind, _ block: UnsafeMutablePointer<Int16>, _ member: Int, _ reader: inout JPEGBitReader
    ) throws(JPEGError) {
        switch kind {
        case .sequential: try decodeSequential(block, member, &reader)
        case .dcFirst: try decodeDCFirst(block, member, &reader)
        case .dcRefine: decodeDCRefine(block, &reader)
        case .acFirst: try decodeACFirst(block, member, &reader)
        case .acRefine: try decodeACRefine(block, member, &reader)
        }
    }

    /// Decodes a DC difference and returns the new DC value.
    @inline(__always)
    private mutating func decodeDC(_ member: Int, _ reader: inout JPEGBitReader) throws(JPEGError) -> Int {
        // Tables are bound before decoding starts (the decoder checked they exist).
        guard let table = dcPointers[member] else { throw .corruptScanData(offset: scanOffset) }
        let size = reader.decode(table)
        guard size >= 0 else { throw .corruptScanData(offset: scanOffset) }
        let difference = reader.signedValue(size)
        // libjpeg keeps the prediction in an int and stores it as a 16-bit coefficient.
        previousDC[member] = Int(Int32(truncatingIfNeeded: previousDC[member] &+ difference))
        return previousDC[member]
    }

    /// Decodes the blocks of one MCU, in the order the scan codes them.
    ///
    /// - Parameters:
    ///   - blocks: The MCU's blocks, worked out once per scan.
    ///   - rowIndex: The MCU row's index in the coefficient planes: the MCU row, or 0 when they
    ///     hold one MCU row.
    @inline(__always)
    private mutating func decodeMCU(
        _ kind: Kind, blocks: UnsafePointer<MCUBlock>, blockCount: Int, mcuColumn: Int, rowIndex: Int,
        reader: inout JPEGBitReader
    ) throws(JPEGError) {
        for index in 0..<blockCount {
            let slot = blocks[index]
            let offset: Int = rowIndex &* slot.rowStep &+ slot.offset &+ mcuColumn &* slot.columnStep
            try decodeBlock(kind, slot.plane + offset, slot.member, &reader)
        }
    }

    @inline(__always)
    private mutating func decodeSequential(
        _ block: UnsafeMutablePointer<Int16>, _ member: Int, _ reader: inout JPEGBitReader
    ) throws(JPEGError) {
        // Tables are bound before decoding starts (the decoder checked they exist).
        guard let dcTable = dcPointers[member], let acTable = acPointers[member],
            let difference = reader.decodeSequentialBlock(
                into: block, dcTable: dcTable, acTable: acTable, order: naturalOrder)
        else { throw .corruptScanData(offset: scanOffset) }
        // libjpeg keeps the prediction in an int and stores it as a 16-bit coefficient.
        previousDC[member] = Int(Int32(truncatingIfNeeded: previousDC[member] &+ difference))
        block[0] = Int16(truncatingIfNeeded: previousDC[member])
    }

    private mutating func decodeDCFirst(
        _ block: UnsafeMutablePointer<Int16>, _ member: Int, _ reader: inout JPEGBitReader
    ) throws(JPEGError) {
        let value = try decodeDC(member, &reader)
        block[0] = Int16(truncatingIfNeeded: value << scan.approximationLow)
    }

    private func decodeDCRefine(_ block: UnsafeMutablePointer<Int16>, _ reader: inout JPEGBitReader) {
        // No branch on the bit, which is as good as random. A bit shifted by at most 13.
        block[0] |= Int16(truncatingIfNeeded: reader.bit() &<< scan.approximationLow)
    }

    private mutating func decodeACFirst(
        _ block: UnsafeMutablePointer<Int16>, _ member: Int, _ reader: inout JPEGBitReader
    ) throws(JPEGError) {
        if endOfBandRun > 0 {
            endOfBandRun -= 1
            return
        }
        guard let table = acPointers[member],
            let run = reader.decodeACFirstBlock(
                into: block, table: table, start: scan.spectralStart, end: scan.spectralEnd,
                shift: scan.approximationLow, order: naturalOrder)
        else { throw .corruptScanData(offset: scanOffset) }
        endOfBandRun = run
    }

    private mutating func decodeACRefine(
        _ block: UnsafeMutablePointer<Int16>, _ member: Int, _ reader: inout JPEGBitReader
    ) throws(JPEGError) {
        guard let table = acPointers[member],
            let run = reader.decodeACRefinementBlock(
                into: block, table: table, endOfBandRun: endOfBandRun, start: scan.spectralStart,
                end: scan.spectralEnd, shift: scan.approximationLow, order: naturalOrder,
                zigzagIndices: zigzagIndices)
        else { throw .corruptScanData(offset: scanOffset) }
        endOfBandRun = run
    }
}

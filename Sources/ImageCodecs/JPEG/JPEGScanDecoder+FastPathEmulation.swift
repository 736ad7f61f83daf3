extension JPEGScanDecoder {
    /// Decodes a sequential scan without restart intervals as ``decode(into:reader:onMCURow:)``
    /// does, through ``JPEGHuffmanFastPathEmulator``: for damaged data whose pixels depend on
    /// which of libjpeg-turbo's two Huffman decoders read each MCU. Leaves `reader` at the byte
    /// libjpeg's marker parser resumes from.
    mutating func decodeEmulatingFastPath(
        into coefficients: JPEGCoefficientBuffer, reader: inout JPEGBitReader, onMCURow: ((Int) -> Void)?
    ) throws(JPEGError) {
        precondition(frame.process == .sequential && restartInterval == 0, "only sequential scans without restarts")
        var tablePointers: [(dc: JPEGHuffmanTable.Pointers, ac: JPEGHuffmanTable.Pointers)] = []
        for member in scan.members.indices {
            // Tables are bound before decoding starts (the decoder checked they exist).
            guard let dc = tables.dc[member]?.pointers, let ac = tables.ac[member]?.pointers else {
                throw .corruptScanData(offset: scanOffset)
            }
            tablePointers.append((dc, ac))
        }
        var emulator = JPEGHuffmanFastPathEmulator(
            bytes: reader.bytes, count: reader.count, position: reader.position, memberCount: scan.members.count)
        let single = scan.members.count == 1
        let streaming = onMCURow != nil
        let firstComponent = frame.components[scan.members[0].componentIndex]
        let mcusPerLine = single ? firstComponent.widthInBlocks : frame.mcusPerLine
        let mcuRows = single ? firstComponent.heightInBlocks : frame.mcuRows
        let cancellation = DecodeCancellation.current.get()
        for mcuRow in 0..<mcuRows {
            if let cancellation, cancellation.shouldStop() { throw .cancelled }
            if streaming && mcuRow > 0 { coefficients.clear() }
            for mcuColumn in 0..<mcusPerLine {
                if emulator.outOfData { continue }
                lastGoodMCURow = mcuRow
                var blocks: [UnsafeMutablePointer<Int16>] = []
                var members: [Int] = []
                for (memberIndex, member) in scan.members.enumerated() {
                    let component = frame.components[member.componentIndex]
                    let plane = coefficients.planes[member.componentIndex]
                    let rows = single ? 1 : component.verticalSampling
                    let columns = single ? 1 : component.horizontalSampling
                    for blockY in 0..<rows {
                        let row = (streaming ? 0 : mcuRow * rows) + blockY
                        for blockX in 0..<columns {
                            blocks.append(plane + (row * component.blocksPerLine + mcuColumn * columns + blockX) * 64)
                            members.append(memberIndex)
                        }
                    }
                }
                emulator.decodeMCU(blocks: blocks, members: members, tables: tablePointers)
                if emulator.outOfData { note(.truncated(offset: scanOffset)) }
            }
            onMCURow?(mcuRow)
        }
        if emulator.metInvalidCode { note(.corruptScanData(offset: scanOffset)) }
        // A strict decoder throws the first defect; the image it would have shown is lost anyway.
        if !recovers, let defect { throw defect }
        reader = JPEGBitReader(bytes: reader.bytes, count: reader.count, position: emulator.resumePosition)
    }
}

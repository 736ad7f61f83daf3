import Foundation

/// The table and frame segments: what a scan needs before its entropy-coded data.
extension JPEGFileDecoder {
    mutating func readFrame(_ data: UnsafeRawBufferPointer, marker: JPEGSegmentReader.Marker) throws(JPEGError) {
        let frame = try JPEGFrame(segment: data, marker: marker.code, offset: marker.offset)
        if let limit = ImageSizeLimit.exceeded(
            width: frame.width, height: frame.height, maximumDimension: maximumDimension,
            maximumPixelCount: maximumPixelCount, ceiling: Int.max / 64)
        {
            throw .imageTooLarge(width: frame.width, height: frame.height, limit: limit)
        }
        self.frame = frame
        componentQuantization = Array(repeating: nil, count: frame.components.count)
        componentScanned = Array(repeating: false, count: frame.components.count)
        coefficientBits = JPEGCoefficientBits(componentCount: frame.components.count)
    }

    mutating func readQuantizationTables(
        _ data: UnsafeRawBufferPointer, marker: JPEGSegmentReader.Marker
    ) throws(JPEGError) {
        var offset = 0
        while offset < data.count {
            // T.81 allows precision 0 (8-bit) and 1 (16-bit); libjpeg reads any other as 16-bit,
            // and so does this.
            let isEightBit = data[offset] >> 4 == 0
            let id = Int(data[offset] & 15)
            let size = isEightBit ? 64 : 128
            guard id < 4, offset + 1 + size <= data.count else {
                throw .badSegment(marker: marker.code, offset: marker.offset)
            }
            var table = [Int32](repeating: 0, count: 64)
            for index in 0..<64 {
                let value =
                    isEightBit
                    ? Int(data[offset + 1 + index])
                    : Int(data[offset + 1 + 2 * index]) << 8 | Int(data[offset + 2 + 2 * index])
                // libjpeg-turbo's islow multipliers are 16-bit signed.
                table[jpegNaturalOrder[index]] = Int32(Int16(truncatingIfNeeded: value))
            }
            quantizationTables[id] = table
            offset += 1 + size
        }
    }

    mutating func readHuffmanTables(
        _ data: UnsafeRawBufferPointer, marker: JPEGSegmentReader.Marker
    ) throws(JPEGError) {
        var offset = 0
        while offset < data.count {
            let tableClass = Int(data[offset] >> 4)
            let id = Int(data[offset] & 15)
            guard tableClass <= 1, id < 4, offset + 17 <= data.count else {
                throw .badSegment(marker: marker.code, offset: marker.offset)
            }
            let counts = (0..<16).map { Int(data[offset + 1 + $0]) }
            let total = counts.reduce(0, +)
            let kind: JPEGError.TableKind = tableClass == 0 ? .huffmanDC : .huffmanAC
            guard total <= 256 else { throw .badHuffmanTable(kind, id: id) }
            guard offset + 17 + total <= data.count else {
                throw .badSegment(marker: marker.code, offset: marker.offset)
            }
            let symbols = (0..<total).map { data[offset + 17 + $0] }
            let table: Result<JPEGHuffmanTable, JPEGError> =
                JPEGHuffmanTable.make(counts: counts, symbols: symbols, isDC: tableClass == 0).map { .success($0) }
                ?? .failure(.badHuffmanTable(kind, id: id))
            if tableClass == 0 { dcTables[id] = table } else { acTables[id] = table }
            offset += 17 + total
        }
    }

    /// The Huffman tables the scan uses, with libjpeg's checks and its standard-table fallback.
    func bindTables(_ scan: JPEGScanHeader, frame: JPEGFrame) throws(JPEGError) -> JPEGScanDecoder.Tables {
        var tables = JPEGScanDecoder.Tables(dc: [], ac: [])
        let sequential = frame.process == .sequential
        let needsDC = sequential || (scan.isDCScan && !scan.isRefinement)
        let needsAC = sequential || !scan.isDCScan
        for member in scan.members {
            var dc: JPEGHuffmanTable?
            var ac: JPEGHuffmanTable?
            // A table slot above 3 fails only the scan that uses it (libjpeg's SOS parser keeps
            // any 4-bit number; jpeg_make_d_derived_tbl refuses it), like an undefined table.
            if needsDC {
                let id = member.dcTableID
                guard id < 4 else { throw .undefinedTable(.huffmanDC, id: id) }
                dc =
                    try dcTables[id]?.typedGet()
                    ?? (sequential ? JPEGHuffmanTable.standardTable(isDC: true, id: id) : nil)
                guard let table = dc else { throw .undefinedTable(.huffmanDC, id: id) }
                guard table.isValidForDC else { throw .badHuffmanTable(.huffmanDC, id: id) }
            }
            if needsAC {
                let id = member.acTableID
                guard id < 4 else { throw .undefinedTable(.huffmanAC, id: id) }
                ac =
                    try acTables[id]?.typedGet()
                    ?? (sequential ? JPEGHuffmanTable.standardTable(isDC: false, id: id) : nil)
                guard ac != nil else { throw .undefinedTable(.huffmanAC, id: id) }
            }
            tables.dc.append(dc)
            tables.ac.append(ac)
        }
        return tables
    }
}

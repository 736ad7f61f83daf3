/// A scan header (SOS): which components the scan codes, with which Huffman tables, and which
/// part of the coefficients (spectral selection `Ss...Se`, successive approximation `Ah`, `Al`).
struct JPEGScanHeader: Sendable, Equatable {
    /// One component of the scan: its index in the frame and its Huffman table slots.
    struct Member: Sendable, Equatable {
        var componentIndex: Int
        var dcTableID: Int
        var acTableID: Int
    }

    var members: [Member]
    var spectralStart: Int
    var spectralEnd: Int
    var approximationHigh: Int
    var approximationLow: Int

    /// Parses an SOS segment's data and checks it against the frame, as libjpeg does.
    ///
    /// - Throws: ``JPEGError/badScan(offset:)`` for an unknown or repeated component (or one
    ///   listed before a component that precedes it in the frame, as libjpeg refuses it), or a
    ///   spectral selection or successive approximation the frame's process does not allow.
    init(segment: UnsafeRawBufferPointer, frame: JPEGFrame, offset: Int) throws(JPEGError) {
        guard segment.count >= 1 else { throw .badSegment(marker: 0xDA, offset: offset) }
        let count = Int(segment[0])
        guard count >= 1, count <= 4, segment.count == 4 + 2 * count else {
            throw .badSegment(marker: 0xDA, offset: offset)
        }
        members = []
        for index in 0..<count {
            let id = Int(segment[1 + 2 * index])
            let tables = segment[2 + 2 * index]
            // libjpeg (jdmarker.c get_sos) takes the first component with this id whose index is
            // not below the member's position (it tests the scan slot of that index for being
            // empty), so components listed out of frame order can fail.
            guard
                let componentIndex = frame.components.indices.first(where: {
                    $0 >= index && frame.components[$0].id == id
                }),
                !members.contains(where: { $0.componentIndex == componentIndex })
            else { throw .badScan(offset: offset) }
            members.append(
                Member(componentIndex: componentIndex, dcTableID: Int(tables >> 4), acTableID: Int(tables & 15)))
        }
        spectralStart = Int(segment[1 + 2 * count])
        spectralEnd = Int(segment[2 + 2 * count])
        approximationHigh = Int(segment[3 + 2 * count] >> 4)
        approximationLow = Int(segment[3 + 2 * count] & 15)
        // Interleaved scans hold at most 10 blocks per MCU (T.81 B.2.3).
        let blocksPerMCU =
            count == 1
            ? 1
            : members.reduce(0) {
                $0 + frame.components[$1.componentIndex].horizontalSampling
                    * frame.components[$1.componentIndex].verticalSampling
            }
        guard blocksPerMCU <= 10 else { throw .badScan(offset: offset) }
        switch frame.process {
        case .sequential:
            // libjpeg ignores Ss, Se, Ah and Al of sequential scans; so do we.
            spectralStart = 0
            spectralEnd = 63
            approximationHigh = 0
            approximationLow = 0
        case .progressive:
            var valid = true
            if spectralStart == 0 {
                valid = spectralEnd == 0
            } else {
                valid = spectralStart <= spectralEnd && spectralEnd <= 63 && count == 1
            }
            if approximationHigh != 0 && approximationLow != approximationHigh - 1 { valid = false }
            if approximationLow > 13 { valid = false }
            guard valid else { throw .badScan(offset: offset) }
        }
    }

    /// Whether this progressive scan codes DC coefficients (otherwise one band of AC ones).
    var isDCScan: Bool { spectralStart == 0 }
    /// Whether this progressive scan refines coefficients coded by an earlier scan.
    var isRefinement: Bool { approximationHigh != 0 }
}

/// Loading and storing the pixels around an edge: a horizontal edge reads rows (sixteen
/// contiguous pixels, or eight of U then eight of V), a vertical edge transposes sixteen rows of
/// eight pixels.
extension VP8LoopFilter {
    @inline(__always)
    private static func load16(_ pointer: UnsafeMutablePointer<UInt8>) -> Wide {
        VP8Lanes.widened(UnsafeRawPointer(pointer).loadUnaligned(as: VP8Lanes.Bytes.self))
    }

    @inline(__always)
    private static func store16(_ pixels: Wide, _ pointer: UnsafeMutablePointer<UInt8>) {
        UnsafeMutableRawPointer(pointer).storeBytes(of: VP8Lanes.narrowed(pixels), as: VP8Lanes.Bytes.self)
    }

    @inline(__always)
    private static func load8x2(_ u: UnsafeMutablePointer<UInt8>, _ v: UnsafeMutablePointer<UInt8>) -> Wide {
        VP8Lanes.widened(
            VP8Lanes.Bytes(
                lowHalf: UnsafeRawPointer(u).loadUnaligned(as: SIMD8<UInt8>.self),
                highHalf: UnsafeRawPointer(v).loadUnaligned(as: SIMD8<UInt8>.self)))
    }

    @inline(__always)
    private static func store8x2(_ pixels: Wide, _ u: UnsafeMutablePointer<UInt8>, _ v: UnsafeMutablePointer<UInt8>) {
        let bytes = VP8Lanes.narrowed(pixels)
        UnsafeMutableRawPointer(u).storeBytes(of: bytes.lowHalf, as: SIMD8<UInt8>.self)
        UnsafeMutableRawPointer(v).storeBytes(of: bytes.highHalf, as: SIMD8<UInt8>.self)
    }

    /// The edge between the rows above and below `q0` (a pointer to row q0), 16 pixels wide.
    @inline(__always)
    static func loadRows(_ q0: UnsafeMutablePointer<UInt8>, stride: Int) -> Edge {
        Edge(
            p3: load16(q0 - 4 * stride), p2: load16(q0 - 3 * stride), p1: load16(q0 - 2 * stride),
            p0: load16(q0 - stride), q0: load16(q0), q1: load16(q0 + stride), q2: load16(q0 + 2 * stride),
            q3: load16(q0 + 3 * stride))
    }

    @inline(__always)
    static func storeRows(_ edge: Edge, _ q0: UnsafeMutablePointer<UInt8>, stride: Int) {
        store16(edge.p2, q0 - 3 * stride)
        store16(edge.p1, q0 - 2 * stride)
        store16(edge.p0, q0 - stride)
        store16(edge.q0, q0)
        store16(edge.q1, q0 + stride)
        store16(edge.q2, q0 + 2 * stride)
    }

    /// The same horizontal edge of U and V, 8 pixels wide each.
    @inline(__always)
    static func loadRows(
        _ u: UnsafeMutablePointer<UInt8>, _ v: UnsafeMutablePointer<UInt8>, stride: Int
    ) -> Edge {
        Edge(
            p3: load8x2(u - 4 * stride, v - 4 * stride), p2: load8x2(u - 3 * stride, v - 3 * stride),
            p1: load8x2(u - 2 * stride, v - 2 * stride), p0: load8x2(u - stride, v - stride), q0: load8x2(u, v),
            q1: load8x2(u + stride, v + stride), q2: load8x2(u + 2 * stride, v + 2 * stride),
            q3: load8x2(u + 3 * stride, v + 3 * stride))
    }

    @inline(__always)
    static func storeRows(
        _ edge: Edge, _ u: UnsafeMutablePointer<UInt8>, _ v: UnsafeMutablePointer<UInt8>, stride: Int
    ) {
        store8x2(edge.p2, u - 3 * stride, v - 3 * stride)
        store8x2(edge.p1, u - 2 * stride, v - 2 * stride)
        store8x2(edge.p0, u - stride, v - stride)
        store8x2(edge.q0, u, v)
        store8x2(edge.q1, u + stride, v + stride)
        store8x2(edge.q2, u + 2 * stride, v + 2 * stride)
    }

    /// Exchanges the `shift`-bit blocks of `a` above `mask` with those of `b` below it: one
    /// round of the 8×8 byte transpose (two of them side by side, one per lane).
    @inline(__always)
    private static func exchange(_ a: inout SIMD2<UInt64>, _ b: inout SIMD2<UInt64>, _ shift: UInt64, _ mask: UInt64) {
        let t = ((a &>> shift) ^ b) & SIMD2(repeating: mask)
        b ^= t
        a ^= t &<< shift
    }

    /// Transposes two 8×8 byte matrices at once: lane 0 holds rows 0...7 (one row per value,
    /// column n in byte n), lane 1 rows 8...15.
    @inline(__always)
    private static func transpose(_ m: inout Matrix) {
        exchange(&m.0, &m.1, 8, 0x00FF_00FF_00FF_00FF)
        exchange(&m.2, &m.3, 8, 0x00FF_00FF_00FF_00FF)
        exchange(&m.4, &m.5, 8, 0x00FF_00FF_00FF_00FF)
        exchange(&m.6, &m.7, 8, 0x00FF_00FF_00FF_00FF)
        exchange(&m.0, &m.2, 16, 0x0000_FFFF_0000_FFFF)
        exchange(&m.1, &m.3, 16, 0x0000_FFFF_0000_FFFF)
        exchange(&m.4, &m.6, 16, 0x0000_FFFF_0000_FFFF)
        exchange(&m.5, &m.7, 16, 0x0000_FFFF_0000_FFFF)
        exchange(&m.0, &m.4, 32, 0x0000_0000_FFFF_FFFF)
        exchange(&m.1, &m.5, 32, 0x0000_0000_FFFF_FFFF)
        exchange(&m.2, &m.6, 32, 0x0000_0000_FFFF_FFFF)
        exchange(&m.3, &m.7, 32, 0x0000_0000_FFFF_FFFF)
    }

    typealias Matrix = (
        SIMD2<UInt64>, SIMD2<UInt64>, SIMD2<UInt64>, SIMD2<UInt64>, SIMD2<UInt64>, SIMD2<UInt64>, SIMD2<UInt64>,
        SIMD2<UInt64>
    )

    @inline(__always)
    private static func bytes(_ value: SIMD2<UInt64>) -> Wide {
        VP8Lanes.widened(unsafeBitCast(value, to: VP8Lanes.Bytes.self))
    }

    @inline(__always)
    private static func words(_ value: Wide) -> SIMD2<UInt64> {
        unsafeBitCast(VP8Lanes.narrowed(value), to: SIMD2<UInt64>.self)
    }

    /// The vertical edge left of the pixels `row(n)` of sixteen rows, transposed so that lane n
    /// is row n.
    @inline(__always)
    static func loadColumns(_ row: (Int) -> UnsafeMutablePointer<UInt8>) -> Edge {
        @inline(__always) func load(_ line: Int) -> SIMD2<UInt64> {
            SIMD2(
                UInt64(littleEndian: UnsafeRawPointer(row(line) - 4).loadUnaligned(as: UInt64.self)),
                UInt64(littleEndian: UnsafeRawPointer(row(line + 8) - 4).loadUnaligned(as: UInt64.self)))
        }
        var m = (load(0), load(1), load(2), load(3), load(4), load(5), load(6), load(7))
        transpose(&m)
        return Edge(
            p3: bytes(m.0), p2: bytes(m.1), p1: bytes(m.2), p0: bytes(m.3), q0: bytes(m.4), q1: bytes(m.5),
            q2: bytes(m.6), q3: bytes(m.7))
    }

    @inline(__always)
    static func storeColumns(_ edge: Edge, _ row: (Int) -> UnsafeMutablePointer<UInt8>) {
        var m = (
            words(edge.p3), words(edge.p2), words(edge.p1), words(edge.p0), words(edge.q0), words(edge.q1),
            words(edge.q2), words(edge.q3)
        )
        transpose(&m)
        @inline(__always) func store(_ line: Int, _ value: SIMD2<UInt64>) {
            UnsafeMutableRawPointer(row(line) - 4).storeBytes(of: value[0].littleEndian, as: UInt64.self)
            UnsafeMutableRawPointer(row(line + 8) - 4).storeBytes(of: value[1].littleEndian, as: UInt64.self)
        }
        store(0, m.0)
        store(1, m.1)
        store(2, m.2)
        store(3, m.3)
        store(4, m.4)
        store(5, m.5)
        store(6, m.6)
        store(7, m.7)
    }

    /// The edge between the rows above and below `q0`, p1 to q1 only (the simple filter's
    /// reach; its caches keep just two rows above a macroblock row).
    @inline(__always)
    static func loadNearRows(_ q0: UnsafeMutablePointer<UInt8>, stride: Int) -> Edge {
        Edge(p1: load16(q0 - 2 * stride), p0: load16(q0 - stride), q0: load16(q0), q1: load16(q0 + stride))
    }

    @inline(__always)
    static func storeNearRows(_ edge: Edge, _ q0: UnsafeMutablePointer<UInt8>, stride: Int) {
        store16(edge.p0, q0 - stride)
        store16(edge.q0, q0)
    }

    /// Filters one macroblock's edges in libwebp's order: left edge, inner vertical edges, top
    /// edge, inner horizontal edges (luma and chroma are independent, so their order is free).
    static func filterMacroblock(
        y: UnsafeMutablePointer<UInt8>, u: UnsafeMutablePointer<UInt8>, v: UnsafeMutablePointer<UInt8>,
        lumaStride: Int, chromaStride: Int, strength: Strength, isSimple: Bool, hasLeft: Bool, hasAbove: Bool
    ) {
        let limit = strength.limit
        let inner = strength.filtersInnerEdges
        // A stride, not an array literal: that allocated on every macroblock.
        let edges = stride(from: 0, to: 16, by: 4)
        if isSimple {
            for x in edges where x == 0 ? hasLeft : inner {
                let row = { (lane: Int) in y + x + lane * lumaStride }
                var edge = loadColumns(row)
                filterSimple(&edge, limit: x == 0 ? limit + 4 : limit)
                storeColumns(edge, row)
            }
            for line in edges where line == 0 ? hasAbove : inner {
                var edge = loadNearRows(y + line * lumaStride, stride: lumaStride)
                filterSimple(&edge, limit: line == 0 ? limit + 4 : limit)
                storeNearRows(edge, y + line * lumaStride, stride: lumaStride)
            }
            return
        }
        for x in edges where x == 0 ? hasLeft : inner {
            let isMacroblockEdge = x == 0
            let edgeLimit = isMacroblockEdge ? limit + 4 : limit
            let lumaRow = { (lane: Int) in y + x + lane * lumaStride }
            var edge = loadColumns(lumaRow)
            filterNormal(&edge, limit: edgeLimit, strength: strength, isMacroblockEdge: isMacroblockEdge)
            storeColumns(edge, lumaRow)
            guard x == 0 || x == 8 else { continue }
            let chromaRow = { (lane: Int) in (lane < 8 ? u : v) + x / 2 + (lane & 7) * chromaStride }
            var chroma = loadColumns(chromaRow)
            filterNormal(&chroma, limit: edgeLimit, strength: strength, isMacroblockEdge: isMacroblockEdge)
            storeColumns(chroma, chromaRow)
        }
        for line in edges where line == 0 ? hasAbove : inner {
            let isMacroblockEdge = line == 0
            let edgeLimit = isMacroblockEdge ? limit + 4 : limit
            let luma = y + line * lumaStride
            var edge = loadRows(luma, stride: lumaStride)
            filterNormal(&edge, limit: edgeLimit, strength: strength, isMacroblockEdge: isMacroblockEdge)
            storeRows(edge, luma, stride: lumaStride)
            guard line == 0 || line == 8 else { continue }
            let offset = line / 2 * chromaStride
            var chroma = loadRows(u + offset, v + offset, stride: chromaStride)
            filterNormal(&chroma, limit: edgeLimit, strength: strength, isMacroblockEdge: isMacroblockEdge)
            storeRows(chroma, u + offset, v + offset, stride: chromaStride)
        }
    }
}

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

    /// The vertical edge left of the pixels `row(n)` of sixteen rows, transposed so that lane n
    /// is row n: sixteen rows of eight bytes (p3 to q3) become eight columns of sixteen.
    @inline(__always)
    static func loadColumns(_ row: (Int) -> UnsafeMutablePointer<UInt8>) -> Edge {
        typealias Lanes = VP8Lanes
        @inline(__always) func load(_ line: Int) -> Lanes.Bytes {
            Lanes.Bytes(lowHalf: UnsafeRawPointer(row(line) - 4).loadUnaligned(as: SIMD8<UInt8>.self), highHalf: .zero)
        }
        // Word c of a pair: column c of two successive rows.
        let pairs0 = Lanes.lowBytes(load(0), load(1))
        let pairs1 = Lanes.lowBytes(load(2), load(3))
        let pairs2 = Lanes.lowBytes(load(4), load(5))
        let pairs3 = Lanes.lowBytes(load(6), load(7))
        let pairs4 = Lanes.lowBytes(load(8), load(9))
        let pairs5 = Lanes.lowBytes(load(10), load(11))
        let pairs6 = Lanes.lowBytes(load(12), load(13))
        let pairs7 = Lanes.lowBytes(load(14), load(15))
        // 32-bit word c of a quad: column c (or 4 + c) of four successive rows.
        let left0 = Lanes.lowWords(pairs0, pairs1)
        let right0 = Lanes.highWords(pairs0, pairs1)
        let left1 = Lanes.lowWords(pairs2, pairs3)
        let right1 = Lanes.highWords(pairs2, pairs3)
        let left2 = Lanes.lowWords(pairs4, pairs5)
        let right2 = Lanes.highWords(pairs4, pairs5)
        let left3 = Lanes.lowWords(pairs6, pairs7)
        let right3 = Lanes.highWords(pairs6, pairs7)
        // 64-bit halves: one column of eight rows, top (rows 0...7) or bottom (8...15).
        let top01 = Lanes.lowDoubleWords(left0, left1)
        let top23 = Lanes.highDoubleWords(left0, left1)
        let top45 = Lanes.lowDoubleWords(right0, right1)
        let top67 = Lanes.highDoubleWords(right0, right1)
        let bottom01 = Lanes.lowDoubleWords(left2, left3)
        let bottom23 = Lanes.highDoubleWords(left2, left3)
        let bottom45 = Lanes.lowDoubleWords(right2, right3)
        let bottom67 = Lanes.highDoubleWords(right2, right3)
        return Edge(
            p3: Lanes.widened(Lanes.lowQuadWords(top01, bottom01)),
            p2: Lanes.widened(Lanes.highQuadWords(top01, bottom01)),
            p1: Lanes.widened(Lanes.lowQuadWords(top23, bottom23)),
            p0: Lanes.widened(Lanes.highQuadWords(top23, bottom23)),
            q0: Lanes.widened(Lanes.lowQuadWords(top45, bottom45)),
            q1: Lanes.widened(Lanes.highQuadWords(top45, bottom45)),
            q2: Lanes.widened(Lanes.lowQuadWords(top67, bottom67)),
            q3: Lanes.widened(Lanes.highQuadWords(top67, bottom67)))
    }

    /// Stores the columns of `edge` back as sixteen rows of eight bytes: the inverse of
    /// ``loadColumns(_:)``.
    @inline(__always)
    static func storeColumns(_ edge: Edge, _ row: (Int) -> UnsafeMutablePointer<UInt8>) {
        typealias Lanes = VP8Lanes
        let (p3, p2, p1, p0) = (
            Lanes.narrowed(edge.p3), Lanes.narrowed(edge.p2), Lanes.narrowed(edge.p1), Lanes.narrowed(edge.p0)
        )
        let (q0, q1, q2, q3) = (
            Lanes.narrowed(edge.q0), Lanes.narrowed(edge.q1), Lanes.narrowed(edge.q2), Lanes.narrowed(edge.q3)
        )
        // Word r: two successive columns of row r (top: rows 0...7, bottom: 8...15).
        let top01 = Lanes.lowBytes(p3, p2)
        let bottom01 = Lanes.highBytes(p3, p2)
        let top23 = Lanes.lowBytes(p1, p0)
        let bottom23 = Lanes.highBytes(p1, p0)
        let top45 = Lanes.lowBytes(q0, q1)
        let bottom45 = Lanes.highBytes(q0, q1)
        let top67 = Lanes.lowBytes(q2, q3)
        let bottom67 = Lanes.highBytes(q2, q3)
        // 32-bit word r: four columns of row r (or 4 + r).
        let left0 = Lanes.lowWords(top01, top23)
        let left1 = Lanes.highWords(top01, top23)
        let right0 = Lanes.lowWords(top45, top67)
        let right1 = Lanes.highWords(top45, top67)
        let left2 = Lanes.lowWords(bottom01, bottom23)
        let left3 = Lanes.highWords(bottom01, bottom23)
        let right2 = Lanes.lowWords(bottom45, bottom67)
        let right3 = Lanes.highWords(bottom45, bottom67)
        // 64-bit halves: whole rows, two by two.
        @inline(__always) func store(_ line: Int, _ rows: Lanes.Bytes) {
            UnsafeMutableRawPointer(row(line) - 4).storeBytes(of: rows.lowHalf, as: SIMD8<UInt8>.self)
            UnsafeMutableRawPointer(row(line + 1) - 4).storeBytes(of: rows.highHalf, as: SIMD8<UInt8>.self)
        }
        store(0, Lanes.lowDoubleWords(left0, right0))
        store(2, Lanes.highDoubleWords(left0, right0))
        store(4, Lanes.lowDoubleWords(left1, right1))
        store(6, Lanes.highDoubleWords(left1, right1))
        store(8, Lanes.lowDoubleWords(left2, right2))
        store(10, Lanes.highDoubleWords(left2, right2))
        store(12, Lanes.lowDoubleWords(left3, right3))
        store(14, Lanes.highDoubleWords(left3, right3))
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

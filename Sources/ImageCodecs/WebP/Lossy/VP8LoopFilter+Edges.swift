/// The loop filters of RFC 6386 §15 in libwebp's integer form, sixteen positions along an edge
/// at once: a luma edge, or the same edge of U (lanes 0...7) and V (lanes 8...15). Lanes hold
/// the four pixels on each side, p3 p2 p1 p0 | q0 q1 q2 q3, widened to 16 bits.
extension VP8LoopFilter {
    typealias Wide = VP8Lanes.Wide
    typealias Mask = SIMDMask<Wide.MaskStorage>

    /// The eight pixels across sixteen positions of an edge.
    struct Edge {
        var p3 = Wide()
        var p2 = Wide()
        var p1 = Wide()
        var p0 = Wide()
        var q0 = Wide()
        var q1 = Wide()
        var q2 = Wide()
        var q3 = Wide()
    }

    @inline(__always)
    private static func difference(_ a: Wide, _ b: Wide) -> Wide { VP8Lanes.absolute(a &- b) }

    /// Positions whose edge is smooth enough to filter at all: 4 |p0 − q0| + |p1 − q1| ≤ 2 × limit + 1.
    @inline(__always)
    private static func edgeMask(_ edge: Edge, limit: Int32) -> Mask {
        let threshold = Wide(repeating: Int16(truncatingIfNeeded: 2 &* limit &+ 1))
        return 4 &* difference(edge.p0, edge.q0) &+ difference(edge.p1, edge.q1) .<= threshold
    }

    /// The common filter: moves p0 and q0 towards each other, where `mask` is set.
    @inline(__always)
    private static func filterCenter(_ edge: inout Edge, where mask: Mask) {
        let a = 3 &* (edge.q0 &- edge.p0) &+ VP8Lanes.clamped(edge.p1 &- edge.q1, -128, 127)
        let a1 = VP8Lanes.clamped((a &+ 4) &>> 3, -16, 15)
        let a2 = VP8Lanes.clamped((a &+ 3) &>> 3, -16, 15)
        edge.p0 = edge.p0.replacing(with: edge.p0 &+ a2, where: mask)
        edge.q0 = edge.q0.replacing(with: edge.q0 &- a1, where: mask)
    }

    /// The simple filter of one edge; results may leave 0...255 until stored.
    @inline(__always)
    static func filterSimple(_ edge: inout Edge, limit: Int32) {
        filterCenter(&edge, where: edgeMask(edge, limit: limit))
    }

    /// The normal filter of one edge: the centre filter where the variance is high, otherwise
    /// the six-tap macroblock-edge filter or the four-tap interior one.
    @inline(__always)
    static func filterNormal(_ edge: inout Edge, limit: Int32, strength: Strength, isMacroblockEdge: Bool) {
        var steps = VP8Lanes.maximum(difference(edge.p3, edge.p2), difference(edge.p2, edge.p1))
        steps = VP8Lanes.maximum(steps, difference(edge.p1, edge.p0))
        steps = VP8Lanes.maximum(steps, difference(edge.q3, edge.q2))
        steps = VP8Lanes.maximum(steps, difference(edge.q2, edge.q1))
        steps = VP8Lanes.maximum(steps, difference(edge.q1, edge.q0))
        let interior = Wide(repeating: Int16(truncatingIfNeeded: strength.interiorLimit))
        let mask = edgeMask(edge, limit: limit) .& (steps .<= interior)
        guard !VP8Lanes.isEmpty(mask) else { return }
        let hevThreshold = Wide(repeating: Int16(truncatingIfNeeded: strength.highEdgeVarianceThreshold))
        let variance = VP8Lanes.maximum(difference(edge.p1, edge.p0), difference(edge.q1, edge.q0))
        let highVariance = variance .> hevThreshold
        let lowVarianceMask = mask .& .!highVariance
        let (p2, p1, p0, q0, q1, q2) = (edge.p2, edge.p1, edge.p0, edge.q0, edge.q1, edge.q2)
        filterCenter(&edge, where: mask .& highVariance)
        if isMacroblockEdge {
            let a = VP8Lanes.clamped(3 &* (q0 &- p0) &+ VP8Lanes.clamped(p1 &- q1, -128, 127), -128, 127)
            let a1 = (27 &* a &+ 63) &>> 7
            let a2 = (18 &* a &+ 63) &>> 7
            let a3 = (9 &* a &+ 63) &>> 7
            edge.p2 = p2.replacing(with: p2 &+ a3, where: lowVarianceMask)
            edge.p1 = p1.replacing(with: p1 &+ a2, where: lowVarianceMask)
            edge.p0 = edge.p0.replacing(with: p0 &+ a1, where: lowVarianceMask)
            edge.q0 = edge.q0.replacing(with: q0 &- a1, where: lowVarianceMask)
            edge.q1 = q1.replacing(with: q1 &- a2, where: lowVarianceMask)
            edge.q2 = q2.replacing(with: q2 &- a3, where: lowVarianceMask)
        } else {
            let a = 3 &* (q0 &- p0)
            let a1 = VP8Lanes.clamped((a &+ 4) &>> 3, -16, 15)
            let a2 = VP8Lanes.clamped((a &+ 3) &>> 3, -16, 15)
            let a3 = (a1 &+ 1) &>> 1
            edge.p1 = p1.replacing(with: p1 &+ a3, where: lowVarianceMask)
            edge.p0 = edge.p0.replacing(with: p0 &+ a2, where: lowVarianceMask)
            edge.q0 = edge.q0.replacing(with: q0 &- a1, where: lowVarianceMask)
            edge.q1 = q1.replacing(with: q1 &- a3, where: lowVarianceMask)
        }
    }
}

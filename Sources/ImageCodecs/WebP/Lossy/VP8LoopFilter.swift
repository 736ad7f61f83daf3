/// The loop filters of RFC 6386 §15 in libwebp's integer form. `step` is the distance between
/// the pixels across the edge (1 for a vertical edge, the row stride for a horizontal one) and
/// `along` the distance between successive edge positions.
enum VP8LoopFilter {
    /// How strongly one kind of macroblock is filtered: 0 for `limit` means not at all.
    struct Strength {
        var limit: Int32 = 0
        var interiorLimit: Int32 = 0
        var highEdgeVarianceThreshold: Int32 = 0
        var filtersInnerEdges = false
    }

    /// The strength of each segment (0...3) and kind (`[segment * 2 + usesSubblocks]`), as
    /// libwebp precomputes them from the filter level, sharpness and deltas.
    static func strengths(header: VP8FrameHeader) -> [Strength] {
        var result: [Strength] = []
        for segment in 0..<4 {
            var base = header.filter.level
            if header.segmentation.isEnabled {
                base = header.segmentation.filterLevels[segment]
                if !header.segmentation.isAbsolute { base += header.filter.level }
            }
            for usesSubblocks in [false, true] {
                var level = base
                if header.filter.usesDeltas {
                    level += header.filter.intraDelta
                    if usesSubblocks { level += header.filter.subblockModeDelta }
                }
                level = min(max(level, 0), 63)
                var strength = Strength(filtersInnerEdges: usesSubblocks)
                if level > 0 {
                    var interior = level
                    let sharpness = header.filter.sharpness
                    if sharpness > 0 {
                        interior >>= sharpness > 4 ? 2 : 1
                        interior = min(interior, 9 - sharpness)
                    }
                    interior = max(interior, 1)
                    strength.interiorLimit = Int32(interior)
                    strength.limit = Int32(2 * level + interior)
                    strength.highEdgeVarianceThreshold = level >= 40 ? 2 : level >= 15 ? 1 : 0
                }
                result.append(strength)
            }
        }
        return result
    }
}

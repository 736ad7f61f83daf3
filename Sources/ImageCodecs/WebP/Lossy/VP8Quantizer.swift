/// The dequantisation factors of one segment (RFC 6386 §9.6, §14.1), with libwebp's rules: the
/// chroma DC index clamped to 117 (factor 132), Y2 AC scaled by 155/100 and at least 8.
struct VP8Quantizer {
    var y1DC: Int32 = 0
    var y1AC: Int32 = 0
    var y2DC: Int32 = 0
    var y2AC: Int32 = 0
    var uvDC: Int32 = 0
    var uvAC: Int32 = 0

    /// Reads the quantiser indices and deltas and builds one quantizer per segment.
    static func read(_ reader: inout VP8BoolDecoder, segmentation: VP8Segmentation) -> [VP8Quantizer] {
        let base = reader.literal(7)
        var deltas = [0, 0, 0, 0, 0]  // y1 DC, y2 DC, y2 AC, uv DC, uv AC
        for index in 0..<5 where reader.flag() == 1 { deltas[index] = reader.signedLiteral(4) }
        var result: [VP8Quantizer] = []
        for segment in 0..<4 {
            guard segmentation.isEnabled || segment == 0 else {
                result.append(result[0])
                continue
            }
            var index = base
            if segmentation.isEnabled {
                index = segmentation.quantizers[segment] + (segmentation.isAbsolute ? 0 : base)
            }
            let dc = VP8Tables.dcQuantizer.pointer
            let ac = VP8Tables.acQuantizer.pointer
            var quantizer = VP8Quantizer()
            quantizer.y1DC = dc[clamp(index + deltas[0], 127)]
            quantizer.y1AC = ac[clamp(index, 127)]
            quantizer.y2DC = dc[clamp(index + deltas[1], 127)] * 2
            // x * 155 / 100 for every AC factor, as libwebp computes it.
            quantizer.y2AC = max((ac[clamp(index + deltas[2], 127)] * 101_581) >> 16, 8)
            quantizer.uvDC = dc[clamp(index + deltas[3], 117)]
            quantizer.uvAC = ac[clamp(index + deltas[4], 127)]
            result.append(quantizer)
        }
        return result
    }

    private static func clamp(_ index: Int, _ maximum: Int) -> Int { min(max(index, 0), maximum) }
}

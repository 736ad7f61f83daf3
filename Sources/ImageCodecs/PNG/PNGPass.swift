/// One sub-image of the filtered data: the whole image, or one of the seven Adam7 passes.
///
/// Each pass is filtered on its own: its first row has no prior row, and rows are
/// `rowByteCount + 1` bytes long (the filter type byte first).
struct PNGPass: Equatable {
    /// The pass's width and height in pixels; both at least 1 (empty passes are left out).
    package let width: Int
    package let height: Int
    /// The image column and row of the pass's first pixel.
    let xStart: Int
    let yStart: Int
    /// The distance in image columns and rows between the pass's pixels.
    let xStep: Int
    let yStep: Int
    /// The bytes of one row of the pass, without the filter type byte.
    let rowByteCount: Int

    /// Where each Adam7 pass starts and how far apart its pixels are: (x, y, x step, y step)
    /// (PNG specification, 8.2).
    private static let adam7: [(xStart: Int, yStart: Int, xStep: Int, yStep: Int)] = [
        (0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2),
    ]

    /// The non-empty passes of an image, in the order their rows are stored.
    ///
    /// - Parameter header: The image's header.
    /// - Returns: One pass covering the image, or up to seven Adam7 passes.
    static func passes(of header: PNGHeader) -> [PNGPass] {
        guard header.isInterlaced else {
            return [
                PNGPass(
                    width: header.width, height: header.height, xStart: 0, yStart: 0, xStep: 1, yStep: 1,
                    rowByteCount: header.rowByteCount(width: header.width)
                )
            ]
        }
        return adam7.compactMap { origin in
            let width = (header.width - origin.xStart + origin.xStep - 1) / origin.xStep
            let height = (header.height - origin.yStart + origin.yStep - 1) / origin.yStep
            guard width > 0, height > 0 else { return nil }
            return PNGPass(
                width: width, height: height, xStart: origin.xStart, yStart: origin.yStart,
                xStep: origin.xStep, yStep: origin.yStep, rowByteCount: header.rowByteCount(width: width)
            )
        }
    }

    /// The bytes of the pass in the decompressed data, filter type bytes included.
    ///
    /// Multiplies without overflow checks: the decoder's size limits keep it far below Int.max.
    var filteredByteCount: Int {
        height * (rowByteCount + 1)
    }
}

/// PNG's Adam7 interlacing (PNG specification, section 8.2), written from the specification
/// independently of the decoder, to make interlaced files whose pixels are known.
public enum PNGAdam7 {
    /// Each pass's first column, first row, column step and row step.
    private static let passes = [
        (0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2),
    ]

    /// Splits an image into its pass images, leaving out the empty ones as PNG does.
    ///
    /// - Parameter pixels: Rows of pixels, all the same length.
    /// - Returns: The pass images in storage order.
    public static func passImages<Pixel>(_ pixels: [[Pixel]]) -> [[[Pixel]]] {
        let height = pixels.count
        let width = pixels.first?.count ?? 0
        return passes.compactMap { xStart, yStart, xStep, yStep in
            let rows = stride(from: yStart, to: height, by: yStep).map { y in
                stride(from: xStart, to: width, by: xStep).map { x in pixels[y][x] }
            }
            return rows.isEmpty || rows[0].isEmpty ? nil : rows
        }
    }
}

/// A straightforward PNG filter and interlace encoder for tests, written from the specification
/// independently of the decoder, to make files whose pixels are known.
enum PNGTestEncoder {
    /// Filters rows of raw bytes: each output row is the filter type byte and the differences.
    ///
    /// - Parameters:
    ///   - rows: The raw rows, all the same length.
    ///   - filterTypes: The filter type of each row (cycled if shorter).
    ///   - bytesPerPixel: The filter distance, at least 1.
    /// The PNG specification's predictor (section 9.2) of filter type `filterType` from the
    /// bytes to the left (`a`), above (`b`) and above left (`c`).
    static func predictor(_ filterType: UInt8, a: Int, b: Int, c: Int) -> Int {
        switch filterType {
        case 0: return 0
        case 1: return a
        case 2: return b
        case 3: return (a + b) / 2
        default:
            let p = a + b - c
            let (pa, pb, pc) = (abs(p - a), abs(p - b), abs(p - c))
            return pa <= pb && pa <= pc ? a : (pb <= pc ? b : c)
        }
    }

    static func filter(_ rows: [[UInt8]], filterTypes: [UInt8], bytesPerPixel: Int) -> [UInt8] {
        var output: [UInt8] = []
        var prior = [UInt8](repeating: 0, count: rows.first?.count ?? 0)
        for (index, row) in rows.enumerated() {
            let filterType = filterTypes[index % filterTypes.count]
            output.append(filterType)
            for x in row.indices {
                let a = x >= bytesPerPixel ? Int(row[x - bytesPerPixel]) : 0
                let c = x >= bytesPerPixel ? Int(prior[x - bytesPerPixel]) : 0
                let predictor = Self.predictor(filterType, a: a, b: Int(prior[x]), c: c)
                output.append(UInt8(truncatingIfNeeded: Int(row[x]) - predictor))
            }
            prior = row
        }
        return output
    }

    /// Splits an image into its Adam7 pass images (empty passes left out).
    ///
    /// - Parameter pixels: Rows of pixels.
    /// - Returns: The pass images in storage order.
    static func adam7Passes<Pixel>(_ pixels: [[Pixel]]) -> [[[Pixel]]] {
        let origins = [
            (0, 0, 8, 8), (4, 0, 8, 8), (0, 4, 4, 8), (2, 0, 4, 4), (0, 2, 2, 4), (1, 0, 2, 2), (0, 1, 1, 2),
        ]
        let height = pixels.count
        let width = pixels.first?.count ?? 0
        return origins.compactMap { xStart, yStart, xStep, yStep in
            let rows = stride(from: yStart, to: height, by: yStep).map { y in
                stride(from: xStart, to: width, by: xStep).map { x in pixels[y][x] }
            }
            return rows.isEmpty || rows[0].isEmpty ? nil : rows
        }
    }

    /// Packs samples of `bitDepth` bits (1, 2, 4, 8 or 16) into bytes, most significant first,
    /// padding the last byte with zero bits.
    static func pack(_ samples: [Int], bitDepth: Int) -> [UInt8] {
        if bitDepth == 16 {
            return samples.flatMap { [UInt8($0 >> 8), UInt8($0 & 0xFF)] }
        }
        var bytes: [UInt8] = []
        var current = 0
        var used = 0
        for sample in samples {
            current = current << bitDepth | sample
            used += bitDepth
            if used == 8 {
                bytes.append(UInt8(current))
                current = 0
                used = 0
            }
        }
        if used > 0 { bytes.append(UInt8(current << (8 - used))) }
        return bytes
    }
}

/// Converts reconstructed PNG rows into the decoder's 8-bit output ``PixelFormat``.
///
/// The output keeps the smallest format that holds the image faithfully: gray stays gray,
/// gray with a tRNS key or an alpha channel becomes ``PixelFormat/grayAlpha8``, everything else
/// ``PixelFormat/rgba8`` with straight alpha. The values match libpng's with the transforms of
/// the PngSuite reference: 16-bit samples keep their high byte, 1/2/4-bit gray is scaled to
/// 0...255 by bit replication, palette indices are looked up (an index past the palette's end
/// gives opaque black, as in libpng), and a tRNS key, masked to the bit depth, is compared at the
/// sample's full precision.
struct PixelExpansion {
    /// How one row is converted; the names read source → output.
    private enum Conversion {
        /// The reconstructed bytes already are the output bytes.
        case copy
        /// 1, 2 or 4-bit gray → gray8, or grayAlpha8 with a key.
        case lowBitGray(bitDepth: Int, key: Int?)
        /// 8-bit gray with a key → grayAlpha8.
        case keyedGray8(key: Int)
        /// 16-bit gray → gray8, or grayAlpha8 with a key.
        case gray16(key: Int?)
        /// 16-bit gray + alpha → grayAlpha8.
        case grayAlpha16
        /// 8-bit RGB → rgba8, transparent where the pixel equals the key.
        case rgb8(key: (Int, Int, Int)?)
        /// 16-bit RGB → rgba8, transparent where the pixel equals the key.
        case rgb16(key: (Int, Int, Int)?)
        /// 16-bit RGBA → rgba8.
        case rgba16
        /// 1, 2, 4 or 8-bit palette indices → rgba8.
        case palette(bitDepth: Int)
    }

    /// The format of the rows ``expand(_:pixelCount:into:)`` writes.
    let format: PixelFormat
    private let conversion: Conversion
    /// For palette images: 256 RGBA entries (tRNS alphas applied), as little-endian `UInt32`s.
    private let paletteColors: [UInt32]

    /// Chooses the conversion for an image.
    ///
    /// - Parameters:
    ///   - header: The image's header.
    ///   - palette: The PLTE entries, 3 bytes each (empty unless the image uses a palette).
    ///   - transparency: The tRNS data, already validated for the color type, or `nil`.
    init(header: PNGHeader, palette: [UInt8], transparency: [UInt8]?) {
        // Key samples are 16 bits whatever the bit depth; decoders must ignore the bits above it
        // (PNG Third Edition, 11.3.2.1), as libpng does.
        let sampleMask = (1 << header.bitDepth) - 1
        let key = transparency.map { bytes in
            (0..<(bytes.count / 2)).map { (Int(bytes[2 * $0]) << 8 | Int(bytes[2 * $0 + 1])) & sampleMask }
        }
        var paletteColors: [UInt32] = []
        switch (header.colorType, header.bitDepth) {
        case (.gray, 8):
            format = key == nil ? .gray8 : .grayAlpha8
            conversion = key.map { .keyedGray8(key: $0[0]) } ?? .copy
        case (.gray, 16):
            format = key == nil ? .gray8 : .grayAlpha8
            conversion = .gray16(key: key?[0])
        case (.gray, let bitDepth):
            format = key == nil ? .gray8 : .grayAlpha8
            conversion = .lowBitGray(bitDepth: bitDepth, key: key?[0])
        case (.grayAlpha, let bitDepth):
            format = .grayAlpha8
            conversion = bitDepth == 8 ? .copy : .grayAlpha16
        case (.rgb, let bitDepth):
            format = .rgba8
            let rgbKey = key.map { ($0[0], $0[1], $0[2]) }
            conversion = bitDepth == 8 ? .rgb8(key: rgbKey) : .rgb16(key: rgbKey)
        case (.rgba, let bitDepth):
            format = .rgba8
            conversion = bitDepth == 8 ? .copy : .rgba16
        case (.palette, let bitDepth):
            format = .rgba8
            conversion = .palette(bitDepth: bitDepth)
            paletteColors = Self.paletteColors(palette, alphas: transparency ?? [])
        }
        self.paletteColors = paletteColors
    }

    /// Whether rows are copied unchanged, so they can be reconstructed straight into the output.
    var isCopy: Bool {
        if case .copy = conversion { return true }
        return false
    }

    /// Whether rows are 8-bit RGB without a key color, which
    /// ``Unfilter/unfilterRGBRowToRGBA(filterType:row:prior:into:pixelCount:)`` reconstructs
    /// straight into the output.
    var isOpaqueRGB8: Bool {
        if case .rgb8(nil) = conversion { return true }
        return false
    }

    /// Converts one row of `pixelCount` pixels.
    ///
    /// - Parameters:
    ///   - row: The reconstructed row; it must hold the packed bytes of `pixelCount` pixels.
    ///   - pixelCount: The pixels in the row.
    ///   - output: Room for `pixelCount * format.bytesPerPixel` bytes.
    /// - Complexity: O(`pixelCount`).
    func expand(_ row: UnsafePointer<UInt8>, pixelCount: Int, into output: UnsafeMutablePointer<UInt8>) {
        let raw = UnsafeMutableRawPointer(output)
        switch conversion {
        case .copy:
            output.update(from: row, count: pixelCount * format.bytesPerPixel)
        case .lowBitGray(let bitDepth, let key):
            let mask = (1 << bitDepth) - 1
            let scale = 255 / mask
            for x in 0..<pixelCount {
                let bitOffset = x * bitDepth
                let sample = Int(row[bitOffset >> 3]) >> (8 - bitDepth - bitOffset & 7) & mask
                if let key {
                    output[2 * x] = UInt8(truncatingIfNeeded: sample * scale)
                    output[2 * x + 1] = sample == key ? 0 : 255
                } else {
                    output[x] = UInt8(truncatingIfNeeded: sample * scale)
                }
            }
        case .keyedGray8(let key):
            for x in 0..<pixelCount {
                let sample = row[x]
                output[2 * x] = sample
                output[2 * x + 1] = Int(sample) == key ? 0 : 255
            }
        case .gray16(let key):
            for x in 0..<pixelCount {
                if let key {
                    output[2 * x] = row[2 * x]
                    output[2 * x + 1] = Int(row[2 * x]) << 8 | Int(row[2 * x + 1]) == key ? 0 : 255
                } else {
                    output[x] = row[2 * x]
                }
            }
        case .grayAlpha16:
            for x in 0..<pixelCount {
                output[2 * x] = row[4 * x]
                output[2 * x + 1] = row[4 * x + 2]
            }
        case .rgb8(nil):
            // Four-byte loads take one byte of the next pixel, replaced by the opaque alpha; the
            // last pixel is read bytewise so the load never leaves the row.
            let opaque = UInt32(0xFF00_0000).littleEndian
            let rowStart = UnsafeRawPointer(row)
            for x in 0..<(pixelCount - 1) {
                let pixel = rowStart.loadUnaligned(fromByteOffset: 3 * x, as: UInt32.self) | opaque
                raw.storeBytes(of: pixel, toByteOffset: 4 * x, as: UInt32.self)
            }
            let last = pixelCount - 1
            output[4 * last] = row[3 * last]
            output[4 * last + 1] = row[3 * last + 1]
            output[4 * last + 2] = row[3 * last + 2]
            output[4 * last + 3] = 255
        case .rgb8(let key?):
            for x in 0..<pixelCount {
                let red = row[3 * x]
                let green = row[3 * x + 1]
                let blue = row[3 * x + 2]
                output[4 * x] = red
                output[4 * x + 1] = green
                output[4 * x + 2] = blue
                output[4 * x + 3] = Int(red) == key.0 && Int(green) == key.1 && Int(blue) == key.2 ? 0 : 255
            }
        case .rgb16(let key):
            for x in 0..<pixelCount {
                let sample = row + 6 * x
                output[4 * x] = sample[0]
                output[4 * x + 1] = sample[2]
                output[4 * x + 2] = sample[4]
                var isKey = false
                if let key {
                    isKey =
                        Int(sample[0]) << 8 | Int(sample[1]) == key.0
                        && Int(sample[2]) << 8 | Int(sample[3]) == key.1
                        && Int(sample[4]) << 8 | Int(sample[5]) == key.2
                }
                output[4 * x + 3] = isKey ? 0 : 255
            }
        case .rgba16:
            for x in 0..<(4 * pixelCount) {
                output[x] = row[2 * x]
            }
        case .palette(let bitDepth):
            paletteColors.withUnsafeBufferPointer { colors in
                let mask = (1 << bitDepth) - 1
                for x in 0..<pixelCount {
                    let bitOffset = x * bitDepth
                    let index = Int(row[bitOffset >> 3]) >> (8 - bitDepth - bitOffset & 7) & mask
                    raw.storeBytes(of: colors[index], toByteOffset: 4 * x, as: UInt32.self)
                }
            }
        }
    }

    /// The 256-entry RGBA lookup table of a palette: tRNS alphas for the first entries, 255 for
    /// the rest, opaque black for indices the palette does not define.
    private static func paletteColors(_ palette: [UInt8], alphas: [UInt8]) -> [UInt32] {
        (0..<256).map { index in
            guard index < palette.count / 3 else { return UInt32(0xFF00_0000).littleEndian }
            let alpha = index < alphas.count ? UInt32(alphas[index]) : 255
            let color =
                UInt32(palette[3 * index]) | UInt32(palette[3 * index + 1]) << 8
                | UInt32(palette[3 * index + 2]) << 16 | alpha << 24
            return color.littleEndian
        }
    }
}

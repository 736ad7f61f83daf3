/// The EXIF Orientation tag (0x0112) of a JPEG's APP1 segment, and how to make the pixels upright.
///
/// The transforms are those of `PIL.ImageOps.exif_transpose`, which the suite's references use:
///
/// | value | stored pixels are            | to make them upright    |
/// |-------|------------------------------|-------------------------|
/// | 1     | upright                      | nothing                 |
/// | 2     | mirrored                     | mirror left-right       |
/// | 3     | upside down                  | rotate 180°             |
/// | 4     | mirrored upside down         | mirror top-bottom       |
/// | 5     | transposed                   | transpose               |
/// | 6     | rotated 90° counter-clockwise| rotate 90° clockwise    |
/// | 7     | transversed                  | transverse              |
/// | 8     | rotated 90° clockwise        | rotate 90° counter-clockwise |
package struct JPEGOrientation: Sendable, Equatable {
    /// The tag's value, 1...8.
    let value: Int

    static let upright = JPEGOrientation(value: 1)

    init(value: Int) {
        self.value = (1...8).contains(value) ? value : 1
    }

    /// Reads the orientation from an APP1 segment's data, or returns `nil` if the segment is not
    /// EXIF or holds no valid Orientation tag in IFD0.
    init?(exifSegment data: UnsafeRawBufferPointer) {
        // "Exif\0\0", then a TIFF header: byte order, 42, offset of IFD0.
        guard data.count >= 14, data[0] == 0x45, data[1] == 0x78, data[2] == 0x69, data[3] == 0x66,
            data[4] == 0, data[5] == 0
        else { return nil }
        let tiff = 6
        let littleEndian: Bool
        switch (data[tiff], data[tiff + 1]) {
        case (0x49, 0x49): littleEndian = true
        case (0x4D, 0x4D): littleEndian = false
        default: return nil
        }
        func read16(_ offset: Int) -> Int? {
            guard offset >= 0, offset + 2 <= data.count else { return nil }
            let (first, second) = (Int(data[offset]), Int(data[offset + 1]))
            return littleEndian ? first | second << 8 : first << 8 | second
        }
        func read32(_ offset: Int) -> Int? {
            guard let high = read16(littleEndian ? offset + 2 : offset),
                let low = read16(littleEndian ? offset : offset + 2)
            else { return nil }
            return high << 16 | low
        }
        guard read16(tiff + 2) == 42, let ifdOffset = read32(tiff + 4), ifdOffset <= data.count,
            let entryCount = read16(tiff + ifdOffset)
        else { return nil }
        for entry in 0..<entryCount {
            let base = tiff + ifdOffset + 2 + 12 * entry
            guard let tag = read16(base) else { return nil }
            if tag == 0x0112 {
                guard read16(base + 2) == 3, let value = read16(base + 8), (1...8).contains(value) else { return nil }
                self.init(value: value)
                return
            }
        }
        return nil
    }

    /// Whether width and height swap.
    var swapsDimensions: Bool { value >= 5 }

    /// Returns `pixels` (`width × height`, `bytesPerPixel` each) transformed to upright.
    func apply(
        _ pixels: [UInt8], width: Int, height: Int, bytesPerPixel: Int
    ) -> (pixels: [UInt8], width: Int, height: Int) {
        guard value != 1 else { return (pixels, width, height) }
        let (outputWidth, outputHeight) = swapsDimensions ? (height, width) : (width, height)
        let result = [UInt8](unsafeUninitializedCapacity: pixels.count) { output, initialized in
            pixels.withUnsafeBufferPointer { input in
                for y in 0..<outputHeight {
                    for x in 0..<outputWidth {
                        let (sourceX, sourceY): (Int, Int)
                        switch value {
                        case 2: (sourceX, sourceY) = (width - 1 - x, y)
                        case 3: (sourceX, sourceY) = (width - 1 - x, height - 1 - y)
                        case 4: (sourceX, sourceY) = (x, height - 1 - y)
                        case 5: (sourceX, sourceY) = (y, x)
                        case 6: (sourceX, sourceY) = (y, height - 1 - x)
                        case 7: (sourceX, sourceY) = (width - 1 - y, height - 1 - x)
                        default: (sourceX, sourceY) = (width - 1 - y, x)
                        }
                        let from = (sourceY * width + sourceX) * bytesPerPixel
                        let to = (y * outputWidth + x) * bytesPerPixel
                        for channel in 0..<bytesPerPixel { output[to + channel] = input[from + channel] }
                    }
                }
            }
            initialized = pixels.count
        }
        return (result, outputWidth, outputHeight)
    }
}

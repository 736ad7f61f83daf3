/// The validated contents of a PNG file's IHDR chunk.
package struct PNGHeader: Equatable, Sendable {
    /// How the samples of a pixel are to be read (PNG specification, 11.2.2).
    enum ColorType: UInt8 {
        case gray = 0
        case rgb = 2
        case palette = 3
        case grayAlpha = 4
        case rgba = 6

        /// The samples per pixel.
        var channelCount: Int {
            switch self {
            case .gray, .palette: 1
            case .grayAlpha: 2
            case .rgb: 3
            case .rgba: 4
            }
        }

        /// The bit depths the specification allows for this color type.
        var allowedBitDepths: Set<Int> {
            switch self {
            case .gray: [1, 2, 4, 8, 16]
            case .palette: [1, 2, 4, 8]
            case .rgb, .grayAlpha, .rgba: [8, 16]
            }
        }
    }

    /// The width in pixels, 1...2³¹ − 1.
    package let width: Int
    /// The height in pixels, 1...2³¹ − 1.
    package let height: Int
    /// Bits per sample (per palette index for palette images).
    let bitDepth: Int
    let colorType: ColorType
    /// Whether the pixels are stored in the seven Adam7 passes.
    let isInterlaced: Bool

    /// Parses and validates IHDR data.
    ///
    /// - Parameter data: The chunk's data.
    /// - Throws: ``PNGError/invalidHeaderLength(_:)``, ``PNGError/invalidDimensions(width:height:)``,
    ///   ``PNGError/invalidColorType(_:)``, ``PNGError/invalidBitDepth(_:colorType:)``,
    ///   ``PNGError/invalidCompressionMethod(_:)``, ``PNGError/invalidFilterMethod(_:)`` or
    ///   ``PNGError/invalidInterlaceMethod(_:)``, checked in that order.
    init(parsing data: UnsafeRawBufferPointer) throws(PNGError) {
        guard data.count == 13 else { throw .invalidHeaderLength(data.count) }
        let width = UInt32(bigEndian: data.loadUnaligned(fromByteOffset: 0, as: UInt32.self))
        let height = UInt32(bigEndian: data.loadUnaligned(fromByteOffset: 4, as: UInt32.self))
        guard (1...0x7FFF_FFFF).contains(width), (1...0x7FFF_FFFF).contains(height) else {
            throw .invalidDimensions(width: width, height: height)
        }
        let bitDepth = data[8]
        guard let colorType = ColorType(rawValue: data[9]) else { throw .invalidColorType(data[9]) }
        guard colorType.allowedBitDepths.contains(Int(bitDepth)) else {
            throw .invalidBitDepth(bitDepth, colorType: data[9])
        }
        guard data[10] == 0 else { throw .invalidCompressionMethod(data[10]) }
        guard data[11] == 0 else { throw .invalidFilterMethod(data[11]) }
        guard data[12] <= 1 else { throw .invalidInterlaceMethod(data[12]) }
        self.width = Int(width)
        self.height = Int(height)
        self.bitDepth = Int(bitDepth)
        self.colorType = colorType
        isInterlaced = data[12] == 1
    }

    /// Bits per pixel in the filtered data: 1 (1-bit gray or palette) to 64 (16-bit RGBA).
    var bitsPerPixel: Int { bitDepth * colorType.channelCount }

    /// The distance in bytes between a byte and the byte it is predicted from: the bytes of a
    /// whole pixel, at least 1 (PNG specification, 9.2).
    var filterBytesPerPixel: Int { max(1, bitsPerPixel / 8) }

    /// The bytes of one row of `width` pixels, without the filter type byte.
    ///
    /// - Parameter width: The pixels in the row; at most 2³¹ − 1, so the result cannot overflow.
    /// - Returns: The packed row size in bytes, rounded up to whole bytes.
    func rowByteCount(width: Int) -> Int {
        (width * bitsPerPixel + 7) / 8
    }
}

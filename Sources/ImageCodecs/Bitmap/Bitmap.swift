/// A portable decoded image: 8-bit pixels in one of the ``PixelFormat`` layouts.
///
/// `Bitmap` is what ``PNGDecoder`` produces and what an `ImageStore<Bitmap>` shares on every
/// platform. It is immutable, so one instance can be shown in many places and read from any
/// thread. Every instance's pixel bytes are counted in ``Bitmap/memory`` while it is alive, and
/// every store that handed it out learns the moment it is freed (WeakImageStore's `ImageStoreStatistics.liveCost`).
public final class Bitmap: StorableImage {
    /// The width in pixels.
    public let width: Int
    /// The height in pixels.
    public let height: Int
    /// The scale of the file the pixels came from: 2 for `icon@2x.png`, 1 for `icon.png`.
    public let scale: Int
    /// The layout of ``pixels``.
    public let format: PixelFormat
    /// The pixels, row-major and tightly packed: `width * format.bytesPerPixel` bytes a row.
    public let pixels: [UInt8]
    /// Reports this bitmap's death to the stores that registered it, when it is released after `deinit`.
    package let deathNotifier = DeathNotifier()

    /// Creates a bitmap that takes ownership of `pixels`.
    ///
    /// - Parameters:
    ///   - width: The width in pixels; not negative.
    ///   - height: The height in pixels; not negative.
    ///   - scale: The scale factor of the source; at least 1. Defaults to 1.
    ///   - format: The layout of `pixels`.
    ///   - pixels: Exactly `width * height * format.bytesPerPixel` bytes.
    public init(width: Int, height: Int, scale: Int = 1, format: PixelFormat, pixels: [UInt8]) {
        precondition(width >= 0 && height >= 0, "Bitmap dimensions must not be negative")
        precondition(scale >= 1, "Bitmap scale must be at least 1")
        precondition(
            pixels.count == width * height * format.bytesPerPixel,
            "Bitmap needs \(width * height * format.bytesPerPixel) bytes, got \(pixels.count)"
        )
        self.width = width
        self.height = height
        self.scale = scale
        self.format = format
        self.pixels = pixels
        BitmapMemory.recordAllocation(bytes: pixels.count)
    }

    deinit {
        // `deathNotifier` is released right after this body, so the stores hear of the death
        // before the thread that let go of the bitmap carries on.
        BitmapMemory.recordDeallocation(bytes: pixels.count)
    }

    /// The decoded size in bytes: `width * height * format.bytesPerPixel`.
    public var cost: Int { pixels.count }

    /// The size in points: pixels divided by ``scale``.
    public var pointSize: (width: Double, height: Double) {
        (Double(width) / Double(scale), Double(height) / Double(scale))
    }

    /// The pixels converted to straight-alpha RGBA8, four bytes a pixel.
    ///
    /// Gray is copied to red, green and blue; a missing alpha becomes 255.
    ///
    /// - Complexity: O(`width * height`); allocates a new array unless already RGBA8.
    public func rgba8() -> [UInt8] {
        switch format {
        case .rgba8:
            return pixels
        case .gray8:
            return [UInt8](unsafeUninitializedCapacity: pixels.count * 4) { output, count in
                for (index, gray) in pixels.enumerated() {
                    output[index &* 4] = gray
                    output[index &* 4 &+ 1] = gray
                    output[index &* 4 &+ 2] = gray
                    output[index &* 4 &+ 3] = 255
                }
                count = pixels.count * 4
            }
        case .grayAlpha8:
            let pixelCount = pixels.count / 2
            return [UInt8](unsafeUninitializedCapacity: pixelCount * 4) { output, count in
                for index in 0..<pixelCount {
                    let gray = pixels[index &* 2]
                    output[index &* 4] = gray
                    output[index &* 4 &+ 1] = gray
                    output[index &* 4 &+ 2] = gray
                    output[index &* 4 &+ 3] = pixels[index &* 2 &+ 1]
                }
                count = pixelCount * 4
            }
        }
    }
}

extension Bitmap: DeathReporting {}

extension Bitmap: CustomStringConvertible {
    /// Its size, layout and scale, for logs and the debugger: `Bitmap(640 × 480 rgba8, scale 2)`.
    public var description: String {
        "Bitmap(\(width) × \(height) \(format), scale \(scale))"
    }
}

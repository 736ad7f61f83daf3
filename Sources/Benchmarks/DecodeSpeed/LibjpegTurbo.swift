import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// libjpeg-turbo's TurboJPEG API, loaded at run time with `dlopen` (`$LIBTURBOJPEG`, else
/// `libturbojpeg.so.0`; `Scripts/install-libjpeg-turbo.sh` installs Debian's `libturbojpeg0`), so
/// the package never links against it. TurboJPEG reports errors by return value, so no `setjmp`
/// shim is needed.
final class LibjpegTurbo: @unchecked Sendable {
    private typealias InitFunction = @convention(c) () -> OpaquePointer?
    private typealias DestroyFunction = @convention(c) (OpaquePointer?) -> Int32
    /// `tjDecompressHeader3(handle, jpegBuf, jpegSize, &width, &height, &subsamp, &colorspace)`.
    private typealias HeaderFunction =
        @convention(c) (
            OpaquePointer?, UnsafePointer<UInt8>?, UInt, UnsafeMutablePointer<Int32>?, UnsafeMutablePointer<Int32>?,
            UnsafeMutablePointer<Int32>?, UnsafeMutablePointer<Int32>?
        ) -> Int32
    /// `tjDecompress2(handle, jpegBuf, jpegSize, dstBuf, width, pitch, height, pixelFormat, flags)`.
    private typealias DecompressFunction =
        @convention(c) (
            OpaquePointer?, UnsafePointer<UInt8>?, UInt, UnsafeMutablePointer<UInt8>?, Int32, Int32, Int32, Int32, Int32
        ) -> Int32
    /// `tjCompress2(handle, srcBuf, width, pitch, height, pixelFormat, &jpegBuf, &jpegSize, subsamp, quality, flags)`.
    private typealias CompressFunction =
        @convention(c) (
            OpaquePointer?, UnsafePointer<UInt8>?, Int32, Int32, Int32, Int32,
            UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>?, UnsafeMutablePointer<UInt>?, Int32, Int32, Int32
        ) -> Int32
    /// `tjBufSize(width, height, subsamp)`: the most bytes a JPEG of that size can take.
    private typealias BufferSizeFunction = @convention(c) (Int32, Int32, Int32) -> UInt

    /// TurboJPEG constants (turbojpeg.h).
    private static let pixelFormatGray: Int32 = 6
    private static let pixelFormatRGBA: Int32 = 7
    private static let flagProgressive: Int32 = 16384
    private static let flagNoRealloc: Int32 = 1024

    /// Chroma subsampling of an encoded image.
    enum Subsampling: Int32 {
        case s444 = 0
        case s420 = 2
    }

    let path: String
    private let decompressor: OpaquePointer
    private let initCompress: InitFunction
    private let header: HeaderFunction
    private let decompress: DecompressFunction
    private let compress: CompressFunction
    private let bufferSize: BufferSizeFunction
    private let destroy: DestroyFunction

    private init(
        path: String, decompressor: OpaquePointer, initCompress: @escaping InitFunction, header: HeaderFunction,
        decompress: DecompressFunction, compress: CompressFunction, bufferSize: BufferSizeFunction,
        destroy: DestroyFunction
    ) {
        self.path = path
        self.decompressor = decompressor
        self.initCompress = initCompress
        self.header = header
        self.decompress = decompress
        self.compress = compress
        self.bufferSize = bufferSize
        self.destroy = destroy
    }

    deinit {
        _ = destroy(decompressor)
    }

    /// Loads the library.
    ///
    /// - Returns: The library, or why it cannot be loaded.
    static func load() -> Result<LibjpegTurbo, SharedLibrary.LoadError> {
        SharedLibrary.open(environmentVariable: "LIBTURBOJPEG", defaultPath: "libturbojpeg.so.0").flatMap {
            library in
            Result { () throws(SharedLibrary.LoadError) in
                let initDecompress = try library.function("tjInitDecompress", as: InitFunction.self)
                guard let decompressor = initDecompress() else {
                    throw SharedLibrary.LoadError(description: "tjInitDecompress failed")
                }
                return LibjpegTurbo(
                    path: library.path, decompressor: decompressor,
                    initCompress: try library.function("tjInitCompress", as: InitFunction.self),
                    header: try library.function("tjDecompressHeader3", as: HeaderFunction.self),
                    decompress: try library.function("tjDecompress2", as: DecompressFunction.self),
                    compress: try library.function("tjCompress2", as: CompressFunction.self),
                    bufferSize: try library.function("tjBufSize", as: BufferSizeFunction.self),
                    destroy: try library.function("tjDestroy", as: DestroyFunction.self))
            }
        }
    }

    /// Decodes a JPEG at 1/`denominator` to RGBA8 (gray8 for grayscale files), with the default
    /// accurate integer IDCT and fancy upsampling, as ``JPEGDecoder`` does.
    ///
    /// - Returns: The pixels, or `nil` if libjpeg-turbo rejects the file.
    func decode(_ data: Data, denominator: Int) -> [UInt8]? {
        data.withUnsafeBytes { (file: UnsafeRawBufferPointer) -> [UInt8]? in
            guard let base = file.bindMemory(to: UInt8.self).baseAddress else { return nil }
            var width: Int32 = 0
            var height: Int32 = 0
            var subsampling: Int32 = 0
            var colorspace: Int32 = 0
            guard header(decompressor, base, UInt(file.count), &width, &height, &subsampling, &colorspace) == 0 else {
                return nil
            }
            // TurboJPEG picks the scaling factor whose output fits the requested size.
            let scaledWidth = (Int(width) + denominator - 1) / denominator
            let scaledHeight = (Int(height) + denominator - 1) / denominator
            let gray = colorspace == 2  // TJCS_GRAY
            let bytesPerPixel = gray ? 1 : 4
            var failed = false
            let pixels = [UInt8](unsafeUninitializedCapacity: scaledWidth * scaledHeight * bytesPerPixel) {
                buffer, count in
                let status = decompress(
                    decompressor, base, UInt(file.count), buffer.baseAddress, Int32(scaledWidth), 0,
                    Int32(scaledHeight),
                    gray ? Self.pixelFormatGray : Self.pixelFormatRGBA, 0
                )
                failed = status != 0
                count = failed ? 0 : scaledWidth * scaledHeight * bytesPerPixel
            }
            return failed ? nil : pixels
        }
    }

    /// Encodes RGBA8 pixels as a JPEG.
    ///
    /// - Returns: The file, or `nil` if libjpeg-turbo fails.
    func encode(
        rgba pixels: [UInt8], width: Int, height: Int, quality: Int, subsampling: Subsampling, progressive: Bool
    ) -> Data? {
        // A compressor per file: libjpeg-turbo 2.1.5 keeps Huffman optimization switched on in a
        // handle after a progressive encode, and the baseline files it then writes are corrupt
        // ("bad Huffman code" in its own decoder).
        guard let compressor = initCompress() else { return nil }
        defer { _ = destroy(compressor) }
        // Our own buffer of the worst-case size, so libjpeg-turbo never reallocates it.
        let capacity = Int(bufferSize(Int32(width), Int32(height), subsampling.rawValue))
        let storage = UnsafeMutablePointer<UInt8>.allocate(capacity: capacity)
        defer { storage.deallocate() }
        var buffer: UnsafeMutablePointer<UInt8>? = storage
        var size = UInt(capacity)
        let flags = (progressive ? Self.flagProgressive : 0) | Self.flagNoRealloc
        let status = pixels.withUnsafeBufferPointer { source in
            compress(
                compressor, source.baseAddress, Int32(width), 0, Int32(height), Self.pixelFormatRGBA, &buffer, &size,
                subsampling.rawValue, Int32(quality), flags
            )
        }
        guard status == 0, let buffer else { return nil }
        return Data(bytes: buffer, count: Int(size))
    }
}

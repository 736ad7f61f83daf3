import Foundation

/// libpng, loaded at run time from the shim that `Scripts/build-libpng-shim.sh` builds, so that
/// the package itself never links against it.
struct LibpngShim {
    /// `int pngshim_decode(const unsigned char *png, size_t size, unsigned char *out,
    /// size_t out_capacity, unsigned *width, unsigned *height)`.
    private typealias DecodeFunction =
        @convention(c) (
            UnsafePointer<UInt8>?, Int, UnsafeMutablePointer<UInt8>?, Int,
            UnsafeMutablePointer<UInt32>?, UnsafeMutablePointer<UInt32>?
        ) -> Int32

    /// Where the shim was loaded from.
    let path: String
    private let decodeFunction: DecodeFunction

    /// The shim's default location, relative to the package root the benchmark runs from.
    static let defaultPath = ".build-libpng/libpngshim.so"

    /// Loads the shim from `$LIBPNG_SHIM`, else ``defaultPath``.
    ///
    /// - Returns: The shim, or why it cannot be loaded.
    static func load() -> Result<LibpngShim, SharedLibrary.LoadError> {
        SharedLibrary.open(environmentVariable: "LIBPNG_SHIM", defaultPath: defaultPath).flatMap { library in
            Result { () throws(SharedLibrary.LoadError) in
                LibpngShim(
                    path: library.path, decodeFunction: try library.function("pngshim_decode", as: DecodeFunction.self))
            }
        }
    }

    /// Decodes a PNG into a new array, 1, 2 or 4 bytes per pixel like ``PNGDecoder``.
    ///
    /// - Parameter data: The whole file.
    /// - Returns: The pixels, or `nil` if libpng rejects the file.
    func decode(_ data: Data) -> [UInt8]? {
        data.withUnsafeBytes { (file: UnsafeRawBufferPointer) -> [UInt8]? in
            guard file.count >= 24, let base = file.bindMemory(to: UInt8.self).baseAddress else { return nil }
            // Width and height from IHDR, to size the output before libpng fills it.
            let width = Int(UInt32(bigEndian: file.loadUnaligned(fromByteOffset: 16, as: UInt32.self)))
            let height = Int(UInt32(bigEndian: file.loadUnaligned(fromByteOffset: 20, as: UInt32.self)))
            let (capacity, overflow) = width.multipliedReportingOverflow(by: height * 4)
            guard !overflow else { return nil }
            var succeeded = false
            let pixels = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, count in
                var decodedWidth: UInt32 = 0
                var decodedHeight: UInt32 = 0
                let bytesPerPixel = decodeFunction(
                    base, file.count, buffer.baseAddress, capacity, &decodedWidth, &decodedHeight
                )
                guard bytesPerPixel > 0 else { return }
                count = Int(decodedWidth) * Int(decodedHeight) * Int(bytesPerPixel)
                succeeded = true
            }
            return succeeded ? pixels : nil
        }
    }
}

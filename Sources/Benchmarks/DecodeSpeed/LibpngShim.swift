import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

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
    static func load() -> Result<LibpngShim, LoadError> {
        let path = ProcessInfo.processInfo.environment["LIBPNG_SHIM"] ?? defaultPath
        guard let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL) else {
            let reason = dlerror().map { String(cString: $0) } ?? "dlopen failed"
            return .failure(LoadError(description: reason))
        }
        guard let symbol = dlsym(handle, "pngshim_decode") else {
            return .failure(LoadError(description: "\(path) has no pngshim_decode"))
        }
        // The handle stays open for the life of the process: the function pointer points into it.
        return .success(LibpngShim(path: path, decodeFunction: unsafeBitCast(symbol, to: DecodeFunction.self)))
    }

    /// Why the shim could not be loaded.
    struct LoadError: Error, CustomStringConvertible {
        let description: String
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

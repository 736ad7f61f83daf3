import Foundation

/// libwebp, loaded at run time from the shim that `Scripts/build-libwebp-shim.sh` builds, so that
/// the package itself never links against it: its decoder is the yardstick, its encoder makes the
/// inputs.
struct LibwebpShim {
    /// `int webpbench_decode(const uint8_t *data, size_t size, uint8_t *out, size_t capacity,
    /// int *width, int *height)`.
    private typealias DecodeFunction =
        @convention(c) (
            UnsafePointer<UInt8>?, Int, UnsafeMutablePointer<UInt8>?, Int, UnsafeMutablePointer<Int32>?,
            UnsafeMutablePointer<Int32>?
        ) -> Int32
    /// `size_t webpbench_encode(const uint8_t *rgba, int width, int height, float quality, uint8_t **output)`.
    private typealias EncodeFunction =
        @convention(c) (
            UnsafePointer<UInt8>?, Int32, Int32, Float, UnsafeMutablePointer<UnsafeMutablePointer<UInt8>?>?
        ) -> Int
    /// `void webpbench_free(void *pointer)`.
    private typealias FreeFunction = @convention(c) (UnsafeMutableRawPointer?) -> Void

    /// Where the shim was loaded from.
    let path: String
    private let decodeFunction: DecodeFunction
    private let encodeFunction: EncodeFunction
    private let freeFunction: FreeFunction

    /// The shim's default location, relative to the package root the benchmark runs from.
    static let defaultPath = ".build-libwebp/libwebpshim.so"

    /// Loads the shim from `$LIBWEBP_SHIM`, else ``defaultPath``.
    ///
    /// - Returns: The shim, or why it cannot be loaded.
    static func load() -> Result<LibwebpShim, SharedLibrary.LoadError> {
        SharedLibrary.open(environmentVariable: "LIBWEBP_SHIM", defaultPath: defaultPath).flatMap { library in
            Result { () throws(SharedLibrary.LoadError) in
                LibwebpShim(
                    path: library.path,
                    decodeFunction: try library.function("webpbench_decode", as: DecodeFunction.self),
                    encodeFunction: try library.function("webpbench_encode", as: EncodeFunction.self),
                    freeFunction: try library.function("webpbench_free", as: FreeFunction.self))
            }
        }
    }

    /// Decodes a WebP into straight RGBA8 with libwebp's defaults.
    ///
    /// - Parameter pixelCount: The image's width × height, to size the output.
    /// - Returns: The pixels, or `nil` if libwebp rejects the file.
    func decode(_ data: Data, pixelCount: Int) -> [UInt8]? {
        var succeeded = false
        let pixels = [UInt8](unsafeUninitializedCapacity: pixelCount * 4) { buffer, initialized in
            var width: Int32 = 0
            var height: Int32 = 0
            let status = data.withUnsafeBytes { file in
                decodeFunction(
                    file.bindMemory(to: UInt8.self).baseAddress, file.count, buffer.baseAddress, pixelCount * 4, &width,
                    &height)
            }
            succeeded = status == 0 && Int(width) * Int(height) == pixelCount
            initialized = succeeded ? pixelCount * 4 : 0
        }
        return succeeded ? pixels : nil
    }

    /// Encodes straight RGBA8 pixels as WebP: lossy at `quality` (0–100), or lossless when nil.
    func encode(rgba: [UInt8], width: Int, height: Int, quality: Float?) -> Data? {
        var output: UnsafeMutablePointer<UInt8>?
        let size = rgba.withUnsafeBufferPointer {
            encodeFunction($0.baseAddress, Int32(width), Int32(height), quality ?? -1, &output)
        }
        guard size > 0, let output else { return nil }
        defer { freeFunction(output) }
        return Data(bytes: output, count: size)
    }
}

import Foundation

/// giflib plus the browsers' frame composition, loaded at run time from the shim that
/// `Scripts/build-giflib-shim.sh` builds, so that the package itself never links against it.
struct GiflibShim {
    /// `int gifcompose_decode(const unsigned char *bytes, size_t size, unsigned char *frames_out,
    /// size_t capacity, int *width, int *height)`.
    private typealias DecodeFunction =
        @convention(c) (
            UnsafePointer<UInt8>?, Int, UnsafeMutablePointer<UInt8>?, Int, UnsafeMutablePointer<Int32>?,
            UnsafeMutablePointer<Int32>?
        ) -> Int32

    /// Where the shim was loaded from.
    let path: String
    private let decodeFunction: DecodeFunction

    /// The shim's default location, relative to the package root the benchmark runs from.
    static let defaultPath = ".build-giflib/libgifshim.so"

    /// Loads the shim from `$GIFLIB_SHIM`, else ``defaultPath``.
    ///
    /// - Returns: The shim, or why it cannot be loaded.
    static func load() -> Result<GiflibShim, SharedLibrary.LoadError> {
        SharedLibrary.open(environmentVariable: "GIFLIB_SHIM", defaultPath: defaultPath).flatMap { library in
            Result { () throws(SharedLibrary.LoadError) in
                GiflibShim(
                    path: library.path,
                    decodeFunction: try library.function("gifcompose_decode", as: DecodeFunction.self))
            }
        }
    }

    /// Every composed frame, straight RGBA8 canvases one after another, to check before timing
    /// that giflib does the same work as our decoder.
    ///
    /// - Parameter capacity: The most bytes the frames may take.
    /// - Returns: The frames and the canvas size, or `nil` if giflib rejects the file.
    func composedFrames(_ data: Data, capacity: Int) -> (pixels: [UInt8], width: Int, height: Int)? {
        var width: Int32 = 0
        var height: Int32 = 0
        var count: Int32 = -1
        let pixels = [UInt8](unsafeUninitializedCapacity: capacity) { buffer, initialized in
            count = data.withUnsafeBytes { file in
                decodeFunction(
                    file.bindMemory(to: UInt8.self).baseAddress, file.count, buffer.baseAddress, capacity, &width,
                    &height)
            }
            initialized = count > 0 ? Int(count) * Int(width) * Int(height) * 4 : 0
        }
        return count > 0 ? (pixels, Int(width), Int(height)) : nil
    }

    /// Decodes and composes every frame, each copied out into an allocation of its own and freed.
    ///
    /// - Returns: The number of frames, or -1 if giflib rejects the file.
    func decodeFrames(_ data: Data) -> Int {
        var width: Int32 = 0
        var height: Int32 = 0
        return data.withUnsafeBytes { file in
            Int(decodeFunction(file.bindMemory(to: UInt8.self).baseAddress, file.count, nil, 0, &width, &height))
        }
    }
}

import Foundation

#if canImport(Glibc)
import Glibc
#elseif canImport(Darwin)
import Darwin
#endif

/// A C library the benchmark measures against, loaded at run time with `dlopen` so that the
/// package itself never links against it (libpng, giflib and libwebp through the shims
/// `Scripts/build-*-shim.sh` build, libjpeg-turbo's TurboJPEG).
struct SharedLibrary {
    /// Where it was loaded from.
    let path: String
    private let handle: UnsafeMutableRawPointer

    /// Why a library could not be loaded.
    struct LoadError: Error, CustomStringConvertible {
        let description: String
    }

    /// Opens `$<environmentVariable>` if it is set, else `defaultPath`.
    static func open(environmentVariable: String, defaultPath: String) -> Result<SharedLibrary, LoadError> {
        let path = ProcessInfo.processInfo.environment[environmentVariable] ?? defaultPath
        guard let handle = dlopen(path, RTLD_NOW | RTLD_LOCAL) else {
            return .failure(LoadError(description: dlerror().map { String(cString: $0) } ?? "dlopen failed"))
        }
        // The handle stays open for the life of the process: function pointers point into it.
        return .success(SharedLibrary(path: path, handle: handle))
    }

    /// The C function `name` as `type` (a `@convention(c)` function type).
    ///
    /// - Throws: ``LoadError`` naming the library and the function when it is missing.
    func function<Function>(_ name: String, as type: Function.Type) throws(LoadError) -> Function {
        guard let symbol = dlsym(handle, name) else { throw LoadError(description: "\(path) has no \(name)") }
        return unsafeBitCast(symbol, to: type)
    }
}

// Added to the macOS type-check only; never part of the library or of a build.
//
// The macOS check runs against Swift overlays and a standard library interface of Swift 5.6 (the
// only ones available for macOS 12 headers). These declarations stand in for standard library API
// that Swift 5.7 added as `@_alwaysEmitIntoClient` (so it back-deploys to every OS), which every
// toolchain able to compile Swift 6 code has on every deployment target.

extension UnsafeRawPointer {
    func loadUnaligned<T>(fromByteOffset offset: Int = 0, as type: T.Type) -> T {
        fatalError("type-check stand-in; never compiled into the library")
    }
}

extension UnsafeMutableRawPointer {
    func loadUnaligned<T>(fromByteOffset offset: Int = 0, as type: T.Type) -> T {
        fatalError("type-check stand-in; never compiled into the library")
    }
}

extension UnsafeRawBufferPointer {
    func loadUnaligned<T>(fromByteOffset offset: Int = 0, as type: T.Type) -> T {
        fatalError("type-check stand-in; never compiled into the library")
    }
}

extension UnsafeMutableRawBufferPointer {
    func loadUnaligned<T>(fromByteOffset offset: Int = 0, as type: T.Type) -> T {
        fatalError("type-check stand-in; never compiled into the library")
    }
}

// Swift 5.8 renamed `assign` to `update` (SE-0370), keeping the old symbols.
extension UnsafeMutablePointer {
    func update(from source: UnsafePointer<Pointee>, count: Int) {
        fatalError("type-check stand-in; never compiled into the library")
    }

    func update(repeating repeatedValue: Pointee, count: Int) {
        fatalError("type-check stand-in; never compiled into the library")
    }
}

// The Foundation overlay of Xcode 14 (Swift 5.7) and every later one declares `Data` and `URL`
// `Sendable`; this Swift 5.6 overlay predates that. Marker conformances, nothing at run time.

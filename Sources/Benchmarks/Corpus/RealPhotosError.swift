import WeakImageStore

/// Why ``RealPhotos/load(from:)`` has no photographs to give.
enum RealPhotosError: Error, Equatable, CustomStringConvertible {
    /// The folder does not exist, cannot be listed or holds no `.jpg` file.
    case folderMissing(path: String)
    /// A master exists but cannot be read.
    case unreadable(path: String)
    /// A master is not a JPEG file our decoder accepts.
    case undecodable(path: String, JPEGError)

    var description: String {
        switch self {
        case .folderMissing(let path):
            "no photographs in \(path) (Sources/Benchmarks/Photos/make.py rebuilds them)"
        case .unreadable(let path): "cannot read \(path)"
        case .undecodable(let path, let error): "\(path) does not decode: \(error)"
        }
    }
}

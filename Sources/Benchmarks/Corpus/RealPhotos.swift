import Foundation
import WeakImageStore

/// The real photographs of `Sources/Benchmarks/Photos` (six wallpaper photos from Debian's
/// lomiri-wallpapers-16.04; its README.md says which and under which licence), decoded by our own
/// ``JPEGDecoder`` and reduced on request by our area-average resampler.
///
/// The decode speed tables measure these rather than ``SyntheticImages/photo(width:height:seed:)``
/// alone because generated photos compress and decode unlike real ones: on them our PNG decoder
/// looked 20 % faster against libpng than on real photographs.
struct RealPhotos {
    /// One photograph at full size, as stored.
    struct Photo {
        /// The master's file name without its extension: `"foliage-dragonfly"`.
        let name: String
        let bitmap: Bitmap

        /// The photo reduced so that its longest side is at most `maxPixelSize` (the thumbnail
        /// rule of ``Bitmap/downsampled(maxPixelSize:)``); never enlarged.
        func reduced(maxPixelSize: Int) -> Photo {
            Photo(name: name, bitmap: bitmap.downsampled(maxPixelSize: maxPixelSize))
        }
    }

    /// Every photograph, smallest (in pixels) first, ties by name.
    let photos: [Photo]

    /// Decodes every JPEG master in `folder`.
    ///
    /// - Parameter folder: Where the masters are. Defaults to the package's `Photos` folder.
    /// - Returns: The photos, or why there are none: the folder is missing or empty (a source
    ///   archive without it), or a master does not decode.
    static func load(from folder: URL = PackageFolders.photos) -> Result<RealPhotos, RealPhotosError> {
        let names: [String]
        do {
            names = try FileManager.default.contentsOfDirectory(atPath: folder.path)
                .filter { $0.hasSuffix(".jpg") }.sorted()
        } catch {
            return .failure(.folderMissing(path: folder.path))
        }
        guard !names.isEmpty else { return .failure(.folderMissing(path: folder.path)) }
        let decoder = JPEGDecoder()
        var photos: [Photo] = []
        for name in names {
            let url = folder.appendingPathComponent(name)
            guard let data = try? Data(contentsOf: url) else { return .failure(.unreadable(path: url.path)) }
            do {
                let bitmap = try decoder.decode(data, scale: 1)
                photos.append(Photo(name: String(name.dropLast(".jpg".count)), bitmap: bitmap))
            } catch {
                return .failure(.undecodable(path: url.path, error))
            }
        }
        photos.sort { ($0.bitmap.width * $0.bitmap.height, $0.name) < ($1.bitmap.width * $1.bitmap.height, $1.name) }
        return .success(RealPhotos(photos: photos))
    }
}

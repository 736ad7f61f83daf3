// The app's one image store, shared by every example. Not a SwiftPM target: these files are
// type-checked for iOS (and, where they apply, macOS) by Scripts/typecheck-apple.sh.
#if canImport(UIKit)
import Foundation
import UIKit
import WeakImageStore

/// Where the app's images come from, and the store that shares them.
///
/// The store serves loose files: images copied into the bundle as files (a folder reference, not
/// an asset catalog), and files the app downloaded or the user saved. Images inside
/// `Assets.car` are not files; keep loading those with `UIImage(named:)`. Bytes the app keeps
/// elsewhere, such as photos in a database, go through a data provider (`PhotoBlobProvider`).
enum AppImages {
    /// Downloaded images, saved as `<name>@2x.png` etc. like bundled ones.
    static let downloads: URL? = FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask).first?
        .appendingPathComponent("FeedImages", isDirectory: true)

    /// Network pictures (`.url` requests) kept on disk across memory warnings and relaunches, by
    /// HTTP's caching rules, never past 150 MiB. Nil if the folder cannot be made: the store then
    /// downloads every memory miss again, and works all the same.
    static let pictureCache = FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask).first.flatMap {
        try? DiskImageCache(directory: $0.appendingPathComponent("Pictures", isDirectory: true))
    }

    /// Bundle files first, then downloads: the same name always finds the same file. URLs go
    /// memory → disk → network, at most six downloads at once.
    static let store: ImageStore<UIImage> = {
        var configuration = ImageStore<UIImage>.Configuration(
            directories: [Bundle.main.resourceURL, downloads].compactMap { $0 })
        configuration.extensions = ["png", "jpg"]
        configuration.downloader = ImageDownloader(maximumConcurrentDownloads: 6)
        configuration.diskCache = pictureCache
        return ImageStore(configuration)
    }()
}
#endif

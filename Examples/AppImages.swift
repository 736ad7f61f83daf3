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

    /// Bundle files first, then downloads: the same name always finds the same file.
    static let store = ImageStore<UIImage>(
        directories: [Bundle.main.resourceURL, downloads].compactMap { $0 },
        extensions: ["png", "jpg"]
    )
}
#endif

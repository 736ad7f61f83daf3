// The README's network quick start: a feed of pictures from URLs, kept on disk between launches.
// The lines between the "README" markers are quoted in README.md verbatim
// (Tests/WeakImageStoreTests/Documentation/ReadmeQuickStartTests.swift checks that), so the
// README's snippet is type-checked with the other examples by Scripts/typecheck-apple.sh.
#if canImport(UIKit) && !os(watchOS)
import UIKit
import WeakImageStore

// README: begin
let cachesFolder = FileManager.default.urls(for: .cachesDirectory, in: .userDomainMask)[0]
let pictures: ImageStore<UIImage> = {
    var configuration = ImageStore<UIImage>.Configuration()  // the main bundle's files, decoded with ImageIO
    configuration.downloader = ImageDownloader(maximumConcurrentDownloads: 6)  // one transfer per URL, 6 at once
    // Downloaded bytes kept on disk between launches, ≤ 150 MiB.
    configuration.diskCache = try? DiskImageCache(directory: cachesFolder.appendingPathComponent("pictures"))
    return ImageStore(configuration)
}()

final class PictureCell: UITableViewCell {
    let picture = UIImageView()
    private var task: Task<Void, Never>?

    func show(_ photoURL: URL) {
        task = Task { @MainActor in
            let image = try? await pictures.fetchImage(for: .url(photoURL, maxPixelSize: 264), priority: .high)
            if !Task.isCancelled { picture.image = image }
        }
    }

    override func prepareForReuse() {
        super.prepareForReuse()
        task?.cancel()  // the download stops at the socket unless another cell waits for it
        picture.image = nil
    }
}
// README: end
#endif

#if canImport(UIKit) && canImport(SQLite3) && !os(watchOS)
import UIKit
import WeakImageStore

/// A list row showing one database row's photo across its width.
final class PhotoRowCell: UITableViewCell {
    static let reuseIdentifier = "PhotoRowCell"

    private let photo = UIImageView()
    /// Loads the photo without blocking scrolling and cancels it when the row goes away.
    private lazy var photoLoader = ImageViewLoader(imageView: photo)

    override init(style: UITableViewCell.CellStyle, reuseIdentifier: String?) {
        super.init(style: style, reuseIdentifier: reuseIdentifier)
        // Aspect fit: a longest side of the row's width is then enough for any photo's shape.
        photo.contentMode = .scaleAspectFit
        photo.frame = contentView.bounds
        photo.autoresizingMask = [.flexibleWidth, .flexibleHeight]
        contentView.addSubview(photo)
    }

    @available(*, unavailable)
    required init?(coder: NSCoder) {
        fatalError("PhotoRowCell is created in code")
    }

    /// Shows the photo of `row`, decoded to at most `maxPixelSize` pixels on its longest side.
    ///
    /// A photo the store holds at this revision and size shows at once; otherwise the row shows a
    /// placeholder while the store reads the blob and decodes it on its loading threads, never
    /// on the main thread.
    func show(_ row: PhotoRow, from database: PhotoDatabase, images: ImageStore<UIImage>, maxPixelSize: Int) {
        let provider = PhotoBlobProvider(database: database, row: row)
        photoLoader.setImage(
            .provider(provider, maxPixelSize: maxPixelSize), from: images,
            placeholder: UIImage(systemName: "photo"))
    }

    /// Lets go of the photo: when no other row shows it, it is freed.
    ///
    /// A photo as wide as the screen costs more than the store's LRU admits (256 KiB by default),
    /// so only the views showing it hold it; the blob's bytes were dropped once it was decoded.
    func stopShowing() {
        photoLoader.cancel()
        photo.image = nil
    }

    override func prepareForReuse() {
        super.prepareForReuse()
        stopShowing()
    }
}
#endif

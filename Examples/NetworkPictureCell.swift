#if canImport(UIKit) && !os(watchOS)
import UIKit
import WeakImageStore

/// A feed row showing a picture downloaded by the store: a placeholder while it loads, the
/// picture decoded at the cell's size, the download cancelled when the cell is reused.
final class NetworkPictureCell: UITableViewCell {
    static let reuseIdentifier = "NetworkPictureCell"
    /// The picture's side, in points.
    static let pictureSide: CGFloat = 88

    private let picture = UIImageView()
    private let caption = UILabel()
    /// Shows the cached picture at once, else loads it without blocking scrolling; a reused cell
    /// cancels the previous load, and a late result for another row is never shown.
    private lazy var pictureLoader = ImageViewLoader(imageView: picture)

    override init(style: UITableViewCell.CellStyle, reuseIdentifier: String?) {
        super.init(style: style, reuseIdentifier: reuseIdentifier)
        picture.contentMode = .scaleAspectFill
        picture.clipsToBounds = true
        picture.backgroundColor = .secondarySystemBackground
        picture.translatesAutoresizingMaskIntoConstraints = false
        caption.translatesAutoresizingMaskIntoConstraints = false
        contentView.addSubview(picture)
        contentView.addSubview(caption)
        NSLayoutConstraint.activate([
            picture.leadingAnchor.constraint(equalTo: contentView.layoutMarginsGuide.leadingAnchor),
            picture.centerYAnchor.constraint(equalTo: contentView.centerYAnchor),
            picture.widthAnchor.constraint(equalToConstant: Self.pictureSide),
            picture.heightAnchor.constraint(equalToConstant: Self.pictureSide),
            caption.leadingAnchor.constraint(equalTo: picture.trailingAnchor, constant: 12),
            caption.trailingAnchor.constraint(equalTo: contentView.layoutMarginsGuide.trailingAnchor),
            caption.centerYAnchor.constraint(equalTo: contentView.centerYAnchor),
        ])
    }

    @available(*, unavailable)
    required init?(coder: NSCoder) {
        fatalError("NetworkPictureCell is created in code")
    }

    /// The request for `item`'s picture at the size this cell shows it, in pixels.
    static func request(for item: NetworkPicture, scale: CGFloat) -> ImageRequest {
        .url(item.url, maxPixelSize: Int((pictureSide * scale).rounded(.up)))
    }

    /// Shows `item`, its picture downloaded through `images`.
    func configure(with item: NetworkPicture, images: ImageStore<UIImage>) {
        caption.text = item.caption
        pictureLoader.setImage(
            Self.request(for: item, scale: traitCollection.displayScale), from: images, priority: .high,
            placeholder: UIImage(systemName: "photo"))
    }

    override func prepareForReuse() {
        super.prepareForReuse()
        // Leaving is enough: when no other row or prefetch waits for the picture, its download
        // stops at the socket.
        pictureLoader.cancel()
    }
}
#endif

#if canImport(UIKit) && !os(watchOS)
import UIKit
import WeakImageStore

/// A feed row: an avatar from the store and a title.
final class FeedCell: UITableViewCell {
    static let reuseIdentifier = "FeedCell"

    private let avatar = UIImageView()
    private let title = UILabel()
    /// Loads the avatar without blocking scrolling and cancels it when the cell is reused.
    private lazy var avatarLoader = ImageViewLoader(imageView: avatar)
    /// The item this cell shows now; a reused cell shows another.
    private(set) var item: FeedItem?

    override init(style: UITableViewCell.CellStyle, reuseIdentifier: String?) {
        super.init(style: style, reuseIdentifier: reuseIdentifier)
        avatar.contentMode = .scaleAspectFill
        avatar.clipsToBounds = true
        avatar.translatesAutoresizingMaskIntoConstraints = false
        title.translatesAutoresizingMaskIntoConstraints = false
        contentView.addSubview(avatar)
        contentView.addSubview(title)
        NSLayoutConstraint.activate([
            avatar.leadingAnchor.constraint(equalTo: contentView.layoutMarginsGuide.leadingAnchor),
            avatar.centerYAnchor.constraint(equalTo: contentView.centerYAnchor),
            avatar.widthAnchor.constraint(equalToConstant: 44),
            avatar.heightAnchor.constraint(equalToConstant: 44),
            title.leadingAnchor.constraint(equalTo: avatar.trailingAnchor, constant: 12),
            title.trailingAnchor.constraint(equalTo: contentView.layoutMarginsGuide.trailingAnchor),
            title.centerYAnchor.constraint(equalTo: contentView.centerYAnchor),
        ])
    }

    @available(*, unavailable)
    required init?(coder: NSCoder) {
        fatalError("FeedCell is created in code")
    }

    /// Shows `item`, its image taken from `images`.
    ///
    /// Every visible row with the same avatar gets the same `UIImage` instance: one decode, one
    /// copy of the pixels, however many rows show it. The avatar is decoded at the size it is
    /// shown (44 points), on the store's loading threads: a miss never blocks scrolling.
    func configure(with item: FeedItem, images: ImageStore<UIImage>) {
        self.item = item
        title.text = item.title
        // A hit shows at once; a miss shows the placeholder until the load ends. A load for an
        // item this cell no longer shows is cancelled, and its image never lands here.
        avatarLoader.setImage(
            named: item.imageName, from: images, maxPixelSize: Int(44 * traitCollection.displayScale),
            placeholder: UIImage(systemName: "person.crop.circle"))
    }

    override func prepareForReuse() {
        super.prepareForReuse()
        // A reused cell lets go of the old image at once: when no row shows it any more, the
        // store's weak layer lets it die (large images) or its small LRU keeps it (icons).
        avatarLoader.cancel()
        item = nil
        avatar.image = nil
        title.text = nil
    }
}
#endif

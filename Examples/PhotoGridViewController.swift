#if canImport(UIKit) && !os(watchOS)
import UIKit
import WeakImageStore

/// A grid of photos decoded at cell size: a 4032 × 3024 photo shown in a 120-point cell costs
/// 360 × 270 pixels (380 KiB) instead of 46 MiB, and small enough for the store's LRU to keep it
/// while the user scrolls back and forth. Tapping a photo opens it at full size.
final class PhotoGridViewController: UICollectionViewController {
    private let photoNames: [String]
    private let images: ImageStore<UIImage>
    private static let cellPoints: CGFloat = 120
    /// Loads the opened photo; releasing a loader cancels its load, so it lives as long as the
    /// viewer might.
    private var openedPhotoLoader: ImageViewLoader?

    init(photoNames: [String], images: ImageStore<UIImage> = AppImages.store) {
        self.photoNames = photoNames
        self.images = images
        let layout = UICollectionViewFlowLayout()
        layout.itemSize = CGSize(width: Self.cellPoints, height: Self.cellPoints)
        layout.minimumInteritemSpacing = 2
        layout.minimumLineSpacing = 2
        super.init(collectionViewLayout: layout)
    }

    @available(*, unavailable)
    required init?(coder: NSCoder) {
        fatalError("PhotoGridViewController is created in code")
    }

    override func viewDidLoad() {
        super.viewDidLoad()
        collectionView.register(PhotoCell.self, forCellWithReuseIdentifier: PhotoCell.reuseIdentifier)
    }

    override func collectionView(_ collectionView: UICollectionView, numberOfItemsInSection section: Int) -> Int {
        photoNames.count
    }

    override func collectionView(
        _ collectionView: UICollectionView, cellForItemAt indexPath: IndexPath
    ) -> UICollectionViewCell {
        let cell = collectionView.dequeueReusableCell(withReuseIdentifier: PhotoCell.reuseIdentifier, for: indexPath)
        if let photoCell = cell as? PhotoCell {
            let pixels = Int(Self.cellPoints * collectionView.traitCollection.displayScale)
            photoCell.show(photoNames[indexPath.item], from: images, maxPixelSize: pixels)
        }
        return cell
    }

    override func collectionView(_ collectionView: UICollectionView, didSelectItemAt indexPath: IndexPath) {
        let viewer = UIViewController()
        let fullSize = UIImageView()
        fullSize.contentMode = .scaleAspectFit
        viewer.view = fullSize
        // Full size only when opened, at the highest priority: the user is waiting for it.
        let loader = ImageViewLoader(imageView: fullSize)
        loader.setImage(named: photoNames[indexPath.item], from: images, priority: .veryHigh)
        openedPhotoLoader = loader
        navigationController?.pushViewController(viewer, animated: true)
    }
}

/// A grid cell showing one photo's thumbnail.
final class PhotoCell: UICollectionViewCell {
    static let reuseIdentifier = "PhotoCell"
    private let photo = UIImageView()
    private lazy var loader = ImageViewLoader(imageView: photo)

    override init(frame: CGRect) {
        super.init(frame: frame)
        photo.contentMode = .scaleAspectFill
        photo.clipsToBounds = true
        photo.frame = contentView.bounds
        photo.autoresizingMask = [.flexibleWidth, .flexibleHeight]
        contentView.addSubview(photo)
    }

    @available(*, unavailable)
    required init?(coder: NSCoder) {
        fatalError("PhotoCell is created in code")
    }

    func show(_ name: String, from images: ImageStore<UIImage>, maxPixelSize: Int) {
        loader.setImage(named: name, from: images, maxPixelSize: maxPixelSize)
    }

    override func prepareForReuse() {
        super.prepareForReuse()
        loader.cancel()
        photo.image = nil
    }
}
#endif

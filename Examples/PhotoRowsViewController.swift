#if canImport(UIKit) && canImport(SQLite3) && !os(watchOS)
import UIKit
import WeakImageStore

/// A list of database rows, each showing its photo: the list holds only row ids, a row's photo is
/// read from the database when the row appears, shown through the store at the row's pixel size,
/// and freed when no row shows it.
final class PhotoRowsViewController: UITableViewController {
    private let database: PhotoDatabase
    private let images: ImageStore<UIImage>
    /// Ids and revisions, never photos: the list costs 16 bytes a row however large its photos are.
    private var rows: [PhotoRow] = []
    /// The store hears the system's memory warnings while this screen exists.
    private var memoryPressure: MemoryPressureSubscription?

    init(database: PhotoDatabase, images: ImageStore<UIImage> = AppImages.store) {
        self.database = database
        self.images = images
        super.init(style: .plain)
    }

    @available(*, unavailable)
    required init?(coder: NSCoder) {
        fatalError("PhotoRowsViewController is created in code")
    }

    override func viewDidLoad() {
        super.viewDidLoad()
        title = "Photos"
        tableView.register(PhotoRowCell.self, forCellReuseIdentifier: PhotoRowCell.reuseIdentifier)
        memoryPressure = images.subscribeToSystemMemoryPressure()
        reloadRows()
    }

    /// Reads the rows again, after the database changed. An edited photo has a new revision, so its
    /// row asks the store for a new image; the old one dies with the last view that shows it.
    func reloadRows() {
        do {
            rows = try database.rows()
            tableView.backgroundView = nil
        } catch {
            rows = []
            let message = UILabel()
            message.text = String(describing: error)
            message.numberOfLines = 0
            message.textAlignment = .center
            tableView.backgroundView = message
        }
        tableView.reloadData()
    }

    override func tableView(_ tableView: UITableView, numberOfRowsInSection section: Int) -> Int {
        rows.count
    }

    override func tableView(_ tableView: UITableView, heightForRowAt indexPath: IndexPath) -> CGFloat {
        tableView.bounds.width * 3 / 4
    }

    override func tableView(_ tableView: UITableView, cellForRowAt indexPath: IndexPath) -> UITableViewCell {
        let cell = tableView.dequeueReusableCell(withIdentifier: PhotoRowCell.reuseIdentifier, for: indexPath)
        if let photoCell = cell as? PhotoRowCell {
            // The row's width in pixels: decoding more would be pixels nobody sees.
            let pixels = Int(tableView.bounds.width * tableView.traitCollection.displayScale)
            photoCell.show(rows[indexPath.row], from: database, images: images, maxPixelSize: max(pixels, 1))
        }
        return cell
    }

    override func tableView(
        _ tableView: UITableView, didEndDisplaying cell: UITableViewCell, forRowAt indexPath: IndexPath
    ) {
        // A cell waiting in the reuse queue would keep its photo alive: let go of it as soon as
        // the row scrolls away.
        (cell as? PhotoRowCell)?.stopShowing()
    }
}
#endif

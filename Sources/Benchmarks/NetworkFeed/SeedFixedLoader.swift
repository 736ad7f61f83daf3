import Foundation
import WeakImageStore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The classic fixed app: a dictionary of decoded pictures by URL, their bytes in files in a
/// local folder, downloads and decodes on a background queue of 6, rows on screen first.
///
/// What the recipe leaves out is left out here too: a URL asked for twice before it arrives is
/// downloaded twice, a row that left keeps its job, and the picture goes into the cell that
/// asked (``FeedStrategy/setsPicturesIntoReusedCells``).
final class SeedFixedLoader: FeedPictureLoader {
    private let pictures = SeedPictureDictionary()
    private let session = BlockingFetch.makeSession()
    private let queue: SeedDownloadQueue
    private let urlsByRow: [[URL]]

    /// - Parameters:
    ///   - folder: The local folder of downloaded files, kept across launches.
    ///   - urlsByRow: Each row's picture URLs, to tell the queue which jobs are on screen.
    init(folder: URL, urlsByRow: [[URL]], decoder: CountingDecoder, inbox: UIInbox) {
        self.urlsByRow = urlsByRow
        queue = SeedDownloadQueue(width: 6) { [pictures, session] job in
            if let picture = pictures[job.url] {
                inbox.post(UIInbox.Delivery(tag: job.tag, slot: job.slot, image: picture))
                return
            }
            let file = folder.appendingPathComponent(Self.fileName(job.url))
            var data = try? Data(contentsOf: file)
            if data == nil {
                data = BlockingFetch.data(job.url, session: session)
                try? data?.write(to: file, options: .atomic)
            }
            let picture = data.flatMap { try? decoder.decode($0, scale: 1) }
            if let picture { pictures[job.url] = picture }
            inbox.post(UIInbox.Delivery(tag: job.tag, slot: job.slot, image: picture))
        }
    }

    func picture(at url: URL, tag: Int, slot: Int) -> FeedPictureAnswer {
        if let picture = pictures[url] { return .picture(picture) }
        queue.add(SeedDownloadQueue.Job(url: url, tag: tag, slot: slot))
        return .loading
    }

    func cellReused(tag: Int) {}

    func visibleRowsChanged(_ rows: Range<Int>, scrollingDown: Bool) {
        queue.setVisibleURLs(Set(rows.flatMap { urlsByRow[$0] }))
    }

    func handleMemoryWarning() {
        pictures.removeAll()
    }

    func terminate() {
        queue.stop()
        session.finishTasksAndInvalidate()
        pictures.removeAll()
    }

    var picturesHeldForDisplay: [Bitmap] { [] }

    /// The URL's path as one file name: `/photos/7.jpg` → `photos_7.jpg`.
    private static func fileName(_ url: URL) -> String {
        url.path.split(separator: "/").joined(separator: "_")
    }
}

import Foundation
import WeakImageStore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// The classic first app: the UI thread downloads and decodes each picture when its row
/// appears; nothing is cached, so a row that comes back is downloaded again.
final class SeedNaiveLoader: FeedPictureLoader {
    private let session = BlockingFetch.makeSession()
    private let decoder: CountingDecoder

    init(decoder: CountingDecoder) {
        self.decoder = decoder
    }

    func picture(at url: URL, tag: Int, slot: Int) -> FeedPictureAnswer {
        guard let data = BlockingFetch.data(url, session: session),
            let picture = try? decoder.decode(data, scale: 1)
        else { return .failed }
        return .picture(picture)
    }

    func cellReused(tag: Int) {}
    func visibleRowsChanged(_ rows: Range<Int>, scrollingDown: Bool) {}
    func handleMemoryWarning() {}

    func terminate() {
        session.finishTasksAndInvalidate()
    }

    var picturesHeldForDisplay: [Bitmap] { [] }
}

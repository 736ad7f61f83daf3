import Foundation
import WeakImageStore

/// One strategy's way of getting a cell's pictures, from one launch of the app to its end. The
/// UI thread calls every method; a picture that comes later is posted to the ``UIInbox`` under
/// the tag of the cell's configuration that asked.
protocol FeedPictureLoader: AnyObject {
    /// The picture at once (from memory, or downloaded right here), or `.loading` after starting a
    /// load that posts it to the inbox under `tag` and `slot`.
    func picture(at url: URL, tag: Int, slot: Int) -> FeedPictureAnswer

    /// The cell configured under `tag` is being reused for another row.
    func cellReused(tag: Int)

    /// The rows on screen after a frame's scroll, and which way the feed moves.
    func visibleRowsChanged(_ rows: Range<Int>, scrollingDown: Bool)

    /// The system's memory warning (`UIApplication.didReceiveMemoryWarningNotification`).
    func handleMemoryWarning()

    /// The app ends: queued work is dropped, running work is waited for (what it posts is never
    /// set), the sessions are closed. What is on disk stays for the next launch.
    func terminate()

    /// Pictures the loader keeps alive for the screen on purpose: the store's prefetch of the
    /// next screen. Caches are not counted here.
    var picturesHeldForDisplay: [Bitmap] { get }
}

/// What a loader answers when a cell asks for a picture.
enum FeedPictureAnswer {
    case picture(Bitmap)
    case loading
    case failed
}

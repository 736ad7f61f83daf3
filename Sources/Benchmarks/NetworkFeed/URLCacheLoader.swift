import Foundation
import WeakImageStore

#if canImport(FoundationNetworking)
import FoundationNetworking
#endif

/// What an app writes without a library: a `URLSession` with a `URLCache` (memory and disk) for
/// the bytes and an `NSCache` for the decoded pictures; each cell starts a data task whose
/// completion decodes, caches and hands the picture back, set only if the cell still shows that
/// URL. Tasks are not cancelled when cells are reused.
///
/// On Linux, `URLCache` does not store responses (see FOUNDATION-ON-LINUX.md): every miss in the
/// `NSCache` goes to the network there, where Apple's would often be answered from disk.
final class URLCacheLoader: FeedPictureLoader {
    private let session: URLSession
    private let pictures = DecodedPictureCache()
    private let decoder: CountingDecoder
    private let inbox: UIInbox
    private let tasks = DispatchGroup()
    /// Set when the app ends: completions that run after it decode nothing.
    private let isTerminated = LockedBox(false)

    /// - Parameter folder: The `URLCache`'s disk folder, kept across launches.
    init(folder: URL, decoder: CountingDecoder, inbox: UIInbox) {
        let configuration = URLSessionConfiguration.default
        configuration.urlCache = URLCache(
            memoryCapacity: 20 * 1_048_576, diskCapacity: 200 * 1_048_576, diskPath: folder.path)
        configuration.requestCachePolicy = .useProtocolCachePolicy
        configuration.httpMaximumConnectionsPerHost = 6
        session = URLSession(configuration: configuration)
        self.decoder = decoder
        self.inbox = inbox
    }

    func picture(at url: URL, tag: Int, slot: Int) -> FeedPictureAnswer {
        if let picture = pictures[url] { return .picture(picture) }
        tasks.enter()
        session.dataTask(with: url) { [pictures, decoder, inbox, tasks, isTerminated] data, response, error in
            defer { tasks.leave() }
            guard !isTerminated.value else { return }
            let picture =
                error == nil && (response as? HTTPURLResponse)?.statusCode == 200
                ? data.flatMap { try? decoder.decode($0, scale: 1) } : nil
            if let picture { pictures.insert(picture, for: url) }
            inbox.post(UIInbox.Delivery(tag: tag, slot: slot, image: picture))
        }.resume()
        return .loading
    }

    func cellReused(tag: Int) {}
    func visibleRowsChanged(_ rows: Range<Int>, scrollingDown: Bool) {}

    func handleMemoryWarning() {
        pictures.removeAll()
    }

    func terminate() {
        isTerminated.value = true
        // The process ends: its transfers stop at the socket.
        session.invalidateAndCancel()
        tasks.wait()
        pictures.removeAll()
    }

    var picturesHeldForDisplay: [Bitmap] { [] }
}

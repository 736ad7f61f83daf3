/// How the network feed's cells get their pictures: the classic table of network pictures' two recipes, what an app
/// writes without a library, and the store.
enum FeedStrategy: PacedStrategy, Sendable {
    /// The classic first app: each picture downloaded synchronously on the UI thread when its
    /// row appears, decoded there, kept by the cell only.
    case seedNaive
    /// The classic fix: downloads on a background queue (6 at once, rows on screen first), a
    /// dictionary of decoded pictures keyed by URL, the bytes in files in a local folder, the
    /// dictionary emptied on a memory warning. Nothing is cancelled, and a download's picture
    /// goes into the cell that asked, whatever row it shows by then.
    case seedFixed
    /// `URLSession` with a `URLCache` (memory and disk) and an `NSCache` of decoded pictures;
    /// nothing cancelled, the picture set only if the cell still shows its URL.
    case urlCache
    /// `image(for: .url(…), priority: .high)` per cell, cancelled when the cell is reused, the
    /// next screen prefetched, the default policy.
    case store
    /// As ``store``, asking for pictures no larger than the cell.
    case storeDisplaySize

    var label: String {
        switch self {
        case .seedNaive: "seed, naive"
        case .seedFixed: "seed, fixed"
        case .urlCache: "URLCache + NSCache"
        case .store: "ours"
        case .storeDisplaySize: "ours, display size"
        }
    }

    var chartColor: String {
        switch self {
        case .seedNaive: "#d62728"
        case .seedFixed: "#ff7f0e"
        case .urlCache: "#8c564b"
        case .store: "#2ca02c"
        case .storeDisplaySize: "#1f77b4"
        }
    }

    /// A name for CSV fields.
    var slug: String {
        switch self {
        case .seedNaive: "seed-naive"
        case .seedFixed: "seed-fixed"
        case .urlCache: "urlcache-nscache"
        case .store: "store"
        case .storeDisplaySize: "store-display-size"
        }
    }

    /// Whether a picture that arrives late is set into the cell that asked even when the cell
    /// was reused for another row meanwhile: the classic recipe captures the cell and checks
    /// nothing.
    var setsPicturesIntoReusedCells: Bool { self == .seedFixed }

    /// Whether this is the library.
    var isStore: Bool { self == .store || self == .storeDisplaySize }
}

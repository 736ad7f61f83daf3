/// How the blob list's rows get their photos.
enum BlobListStrategy: PacedStrategy {
    /// The query reads every row with its blob, as the source material's does (100 rows × 500 KB
    /// is 50 MB at once); the rows keep their blobs while the list is open, and the cells show
    /// them through the store.
    case eager
    /// The query reads ids and revisions only; a cell asks the store for its row's photo, whose
    /// provider reads the blob only if the image is not in memory, and the store lets go of the
    /// bytes once decoded.
    case providerAndStore

    /// Whether the list's query reads the photo column.
    var queriesBlobs: Bool { self == .eager }

    var label: String {
        switch self {
        case .eager: "eager"
        case .providerAndStore: "provider + store"
        }
    }

    /// Eager red, provider + store green.
    var chartColor: String {
        switch self {
        case .eager: "#d62728"
        case .providerAndStore: "#2ca02c"
        }
    }

    /// A name for CSV fields.
    var slug: String {
        switch self {
        case .eager: "eager"
        case .providerAndStore: "provider-store"
        }
    }
}

import Foundation

/// One way of keeping downloaded bytes on disk, as the disk-cache benchmark drives it: opened
/// over a folder, then written, hit and missed by URL.
protocol DiskCacheCandidate {
    /// The row label.
    static var name: String { get }
    /// Opens the cache kept in `directory`, doing whatever the design does at start-up.
    init(directory: URL) throws
    /// Keeps `data` for `url`.
    func store(_ data: Data, for url: URL)
    /// The bytes kept for `url`, read from disk; nil on a miss.
    func data(for url: URL) -> Data?
    /// Whether anything is kept for `url`, the question a lookup asks before it reads.
    func contains(_ url: URL) -> Bool
}

import Foundation

/// One way of keeping downloaded bytes on disk, as the disk-cache benchmark drives it: opened
/// over a folder, then written, hit and missed by URL.
///
/// Lookups take a key made beforehand from the URL, as an app makes its request before the
/// lookup: the figures are the cache's own cost, not the cost of parsing a URL.
protocol DiskCacheCandidate {
    /// What a lookup names an entry by.
    associatedtype Key

    /// The row label.
    static var name: String { get }
    /// Opens the cache kept in `directory`, doing whatever the design does at start-up.
    init(directory: URL) throws
    /// The key of `url`'s entry.
    func key(for url: URL) -> Key
    /// Keeps `data` under `key`.
    func store(_ data: Data, for key: Key)
    /// The bytes kept under `key`, read from disk; nil on a miss.
    func data(for key: Key) -> Data?
    /// Whether anything is kept under `key`, the question a lookup asks before it reads.
    func contains(_ key: Key) -> Bool
}

import Foundation

/// The design of Kingfisher's `DiskStorage` and Nuke's `DataCache`: one file per key, named by a
/// hash of the key, written atomically; at open the folder is listed with each file's size and
/// date, which is how such caches learn their total size and eviction order.
struct FilePerKeyCache: DiskCacheCandidate {
    static let name = "file per key (scans at open)"
    private let directory: URL
    /// What the scan at open learned: bytes and entries.
    let scannedBytes: Int
    let scannedCount: Int

    init(directory: URL) throws {
        self.directory = directory
        try FileManager.default.createDirectory(at: directory, withIntermediateDirectories: true)
        let keys: [URLResourceKey] = [.fileSizeKey, .contentModificationDateKey]
        let files = try FileManager.default.contentsOfDirectory(
            at: directory, includingPropertiesForKeys: keys, options: .skipsHiddenFiles)
        var bytes = 0
        for file in files {
            let values = try file.resourceValues(forKeys: Set(keys))
            bytes += values.fileSize ?? 0
            blackHole(values.contentModificationDate)
        }
        scannedBytes = bytes
        scannedCount = files.count
    }

    func store(_ data: Data, for file: URL) {
        try? data.write(to: file, options: .atomic)
    }

    func data(for file: URL) -> Data? {
        try? Data(contentsOf: file)
    }

    func contains(_ file: URL) -> Bool {
        FileManager.default.fileExists(atPath: file.path)
    }

    /// The key's file: a 64-bit FNV-1a hash of the URL in hex (the peers use MD5 or SHA-1).
    func key(for url: URL) -> URL {
        var hash: UInt64 = 0xcbf2_9ce4_8422_2325
        for byte in url.absoluteString.utf8 {
            hash = (hash ^ UInt64(byte)) &* 0x100_0000_01b3
        }
        return directory.appendingPathComponent(String(hash, radix: 16))
    }
}

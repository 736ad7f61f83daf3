import Foundation

/// Where a disk cache keeps what, inside its folder:
///
/// | path | holds |
/// |---|---|
/// | `journal` | the index: header and records (``DiskCacheJournalFormat``) |
/// | `lock` | nothing; `flock` on it serializes the processes that change the journal |
/// | `bodies/ab/ab…` | each body, named by the 64 hex digits of its digest, in a folder named by the first two |
/// | `tmp/<pid>-<uuid>.body` | bodies being written, and compacted journals being written |
///
/// The two-level layout keeps folders small (256 of them) without the index ever listing them.
struct DiskCacheLayout: Sendable {
    let directory: String
    let journalPath: String
    let lockPath: String
    let temporaryFolder: String
    /// Stored, not computed: every hit builds its path from it.
    let bodiesFolder: String

    init(directory: String) {
        self.directory = directory
        journalPath = directory + "/journal"
        lockPath = directory + "/lock"
        temporaryFolder = directory + "/tmp"
        bodiesFolder = directory + "/bodies"
    }

    /// The folder holding the body of `digest`.
    func bodyFolder(for digest: SHA256Digest) -> String {
        bodiesFolder + "/" + digest.description.prefix(2)
    }

    /// Calls `body` with the body file path of `digest` as a C string built on the stack, the
    /// path a hit opens: no `String` is made.
    ///
    /// - Parameter relative: Whether the path starts inside ``bodiesFolder`` (`ab/<64 hex
    ///   digits>`, for opening relative to it) rather than with it.
    func withBodyPath<Result>(
        for digest: SHA256Digest, relative: Bool = false, _ body: (UnsafePointer<CChar>) -> Result
    ) -> Result {
        var folder = relative ? "" : bodiesFolder
        return folder.withUTF8 { folderBytes in
            // "<bodies>/ab/<64 hex digits>" (or "ab/<64 hex digits>") and a terminating NUL.
            let prefixLength = relative ? 0 : folderBytes.count + 1
            let length = prefixLength + 2 + 1 + 64 + 1
            return withUnsafeTemporaryAllocation(of: CChar.self, capacity: length) { path in
                for (position, byte) in folderBytes.enumerated() { path[position] = CChar(bitPattern: byte) }
                if !relative { path[prefixLength - 1] = CChar(bitPattern: UInt8(ascii: "/")) }
                let hexStart = prefixLength + 3
                digest.writeHexDigits(into: UnsafeMutableBufferPointer(rebasing: path[hexStart..<hexStart + 64]))
                path[prefixLength] = path[hexStart]
                path[prefixLength + 1] = path[hexStart + 1]
                path[prefixLength + 2] = CChar(bitPattern: UInt8(ascii: "/"))
                path[length - 1] = 0
                return body(path.baseAddress!)  // Proven: the allocation holds `length` > 0 elements.
            }
        }
    }

    /// The body file of `digest`.
    func bodyPath(for digest: SHA256Digest) -> String {
        let name = digest.description
        return bodiesFolder + "/" + name.prefix(2) + "/" + name
    }

    /// A new temporary file's name in ``temporaryFolder``, which names the writing process so
    /// that another process opening the cache leaves it alone while that process lives.
    func temporaryName(suffix: String) -> String {
        "\(getpid())-\(UUID().uuidString).\(suffix)"
    }
}

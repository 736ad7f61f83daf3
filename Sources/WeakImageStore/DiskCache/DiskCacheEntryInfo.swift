/// What the index knows about an entry, without touching the disk.
struct DiskCacheEntryInfo: Sendable, Equatable {
    /// The body's length in bytes.
    let size: Int
    /// Until when the body may be used, and how to revalidate it.
    let validity: ResponseValidity
    /// The body's CRC-32, as recorded.
    let checksum: UInt32
}

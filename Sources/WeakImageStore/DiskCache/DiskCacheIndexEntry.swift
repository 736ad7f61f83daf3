/// One entry of the disk cache's in-memory index: what the journal says about a body, plus the
/// entry's links in the least-recently-used list.
///
/// Kept to 72 bytes (the digest, not the identity's string; the validators' text in the index's
/// shared byte storage, not in two `String`s of their own) so that 100,000 entries fit in a few
/// megabytes and load without an allocation each.
struct DiskCacheIndexEntry: Sendable {
    /// Bits of ``flags``.
    enum Flag {
        /// The response said `Cache-Control: no-cache`.
        static let revalidatesEveryUse: UInt8 = 1 << 0
        /// The response had an `ETag` (possibly empty).
        static let hasEntityTag: UInt8 = 1 << 1
        /// The response had a `Last-Modified` (possibly empty).
        static let hasLastModified: UInt8 = 1 << 2
        /// The response had a `max-age` or an `Expires`: both follow the validators
        /// (``DiskCacheJournalFormat/freshnessFieldsLength`` bytes).
        static let hasFreshnessFields: UInt8 = 1 << 3
        /// The flags the journal stores; the others live only in memory.
        static let stored: UInt8 = revalidatesEveryUse | hasEntityTag | hasLastModified | hasFreshnessFields
        /// A hit not yet written to the journal as a touch record.
        static let touchPending: UInt8 = 1 << 6
        /// The slot holds an entry (not a free slot).
        static let live: UInt8 = 1 << 7
    }

    /// The SHA-256 of the entry's identity: its name on disk and its key in the index.
    var digest: SHA256Digest
    /// The body's length in bytes.
    var size: Int
    /// ``ResponseValidity/freshUntil``.
    var freshUntil: Double
    /// The CRC-32 of the body.
    var bodyChecksum: UInt32
    /// Where the validators' bytes start in the index's validator storage: the entity tag, then
    /// the last-modified date, then the freshness fields (``Flag/hasFreshnessFields``).
    var validatorOffset: UInt32
    var entityTagLength: UInt16
    var lastModifiedLength: UInt16
    /// The next less recently used entry's slot, or -1.
    var lessRecent: Int32
    /// The next more recently used entry's slot, or -1; for a free slot, the next free slot.
    var moreRecent: Int32
    var flags: UInt8

    var isLive: Bool { flags & Flag.live != 0 }
    /// The bytes of the entry's validators and, if it has them, its freshness fields.
    var validatorLength: Int {
        Int(entityTagLength) + Int(lastModifiedLength)
            + DiskCacheJournalFormat.freshnessFieldsLength(flags: flags)
    }
}

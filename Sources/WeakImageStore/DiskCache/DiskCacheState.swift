/// What a ``DiskImageCache`` keeps in memory, behind its state lock: the index, the journal's
/// length, the counters and the hits the journal has not heard of yet.
///
/// Only in-memory work here: the cache does the file I/O these methods plan, outside this lock.
struct DiskCacheState: Sendable {
    /// A plan to append to the journal: the bytes, and the entries whose bodies to delete first.
    struct Append {
        let bytes: [UInt8]
        let victims: [SHA256Digest]
    }

    var index = DiskCacheIndex()
    /// The journal's length, header included: part of the total size.
    var journalBytes = 0
    var statistics = DiskCacheStatistics()
    /// The largest body a journal record may claim: the cache's size limit.
    let bodySizeLimit: Int
    /// Whether another process held the lock file past the deadline at the last try: the next
    /// try does not wait, so that a lock held for good costs one system call per write, not a
    /// deadline each.
    var isLockContended = false
    /// Entries hit since the journal last heard of them, for touch records.
    private var pendingTouches: [SHA256Digest] = []

    init(bodySizeLimit: Int) {
        self.bodySizeLimit = bodySizeLimit
    }

    /// Bodies plus journal.
    var totalSize: Int { index.bodyBytes + journalBytes }

    /// Whether the journal is mostly records that compaction would drop.
    var journalIsMostlyDead: Bool {
        journalBytes > DiskCacheJournalFormat.headerSize + 2 * index.liveRecordBytes + 4_096
    }

    /// Whether compaction would shrink the journal at all.
    var journalHasDeadRecords: Bool {
        journalBytes > DiskCacheJournalFormat.headerSize + index.liveRecordBytes
    }

    /// What the index records about `digest`'s entry.
    func info(of digest: SHA256Digest) -> DiskCacheEntryInfo? {
        index.slot(of: digest).map { index.info(at: $0) }
    }

    /// Counts a read that found the body whole, and makes the entry the most recently used.
    mutating func countHit(_ digest: SHA256Digest) {
        statistics.hits += 1
        guard let slot = index.slot(of: digest) else { return }
        index.touch(slot: slot)
        // Bounded: touches only refine the order other processes and the next open see.
        if pendingTouches.count < 4_096, index.markTouchPending(slot: slot) {
            pendingTouches.append(digest)
        }
    }

    /// Plans appending `records` behind touch records for recent hits and remove records for the
    /// least recently used entries that must go for the total — bodies changed by `bodyDelta`,
    /// journal grown by every appended byte — to stay within `limit`.
    ///
    /// - Returns: The plan, or nil when even evicting every entry but `spared` is not enough.
    mutating func planAppend(_ records: [UInt8], bodyDelta: Int, sparing spared: SHA256Digest?, limit: Int) -> Append? {
        var bytes: [UInt8] = []
        for digest in pendingTouches where index.clearTouchPending(digest) {
            DiskCacheJournalFormat.appendDigestRecord(.touch, digest, to: &bytes)
        }
        pendingTouches.removeAll(keepingCapacity: true)
        let projected = totalSize + bytes.count + records.count + bodyDelta
        guard let victims = index.evictionVictims(projectedTotal: projected, limit: limit, sparing: spared) else {
            return nil
        }
        for victim in victims { DiskCacheJournalFormat.appendDigestRecord(.remove, victim, to: &bytes) }
        bytes += records
        return Append(bytes: bytes, victims: victims)
    }

    /// Applies records appended to the journal (by this process, or caught up from others'),
    /// which now is `journalLength` bytes long.
    ///
    /// - Returns: How far the records were valid.
    @discardableResult
    mutating func apply(_ records: [UInt8], journalLength: Int) -> DiskCacheJournalFormat.Outcome {
        let outcome = records.withUnsafeBytes {
            DiskCacheJournalFormat.apply($0, to: &index, bodySizeLimit: bodySizeLimit)
        }
        journalBytes = journalLength
        if outcome.isDamaged { statistics.errors += 1 }
        return outcome
    }

    /// Takes an index read from a whole journal of `journalLength` bytes.
    mutating func replaceIndex(with newIndex: DiskCacheIndex, journalLength: Int, isDamaged: Bool) {
        index = newIndex
        journalBytes = journalLength
        pendingTouches = []
        if isDamaged { statistics.errors += 1 }
    }

    /// The journal compaction writes: one put per entry, least recently used first. Pending
    /// touches are in it (as the order), so they are dropped.
    mutating func compactedJournal() -> [UInt8] {
        for digest in pendingTouches { index.clearTouchPending(digest) }
        pendingTouches.removeAll()
        return index.journalSnapshot
    }
}

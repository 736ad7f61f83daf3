extension DiskCacheIndex {
    /// The entries to evict, least recently used first, for a total of `projectedTotal` bytes
    /// (bodies and journal, with the records about to be appended) to come within `limit`; each
    /// eviction frees its body and costs a remove record. Nil when even evicting every entry but
    /// `spared` would not be enough.
    func evictionVictims(projectedTotal: Int, limit: Int, sparing spared: SHA256Digest?) -> [SHA256Digest]? {
        var total = projectedTotal
        var victims: [SHA256Digest] = []
        var next = leastRecentlyUsedSlot
        while total > limit {
            guard let slot = next else { return nil }
            next = self.slot(usedAfter: slot)
            let entry = entries[slot]
            if entry.digest == spared { continue }
            victims.append(entry.digest)
            total += DiskCacheJournalFormat.digestRecordSize - entry.size
        }
        return victims
    }

    /// A whole journal holding one put record per entry, least recently used first, so that
    /// reading it back restores the order.
    var journalSnapshot: [UInt8] {
        var bytes = DiskCacheJournalFormat.header
        bytes.reserveCapacity(DiskCacheJournalFormat.headerSize + liveRecordBytes)
        var next = leastRecentlyUsedSlot
        while let slot = next {
            let entry = entries[slot]
            withValidatorBytes(at: slot) { validators in
                DiskCacheJournalFormat.appendPut(
                    entry.digest, size: entry.size, checksum: entry.bodyChecksum, freshUntil: entry.freshUntil,
                    flags: entry.flags, entityTagLength: Int(entry.entityTagLength), validatorBytes: validators,
                    to: &bytes)
            }
            next = self.slot(usedAfter: slot)
        }
        return bytes
    }

    /// The most entries a load reserves room for before the journal's records have proven
    /// themselves: about 10 MB of index. Larger indexes grow as their records are applied.
    static let maximumReservedCount = 1 << 17

    /// The index a journal's whole `contents` describe, and whether it was damaged: a bad header
    /// (nothing is trusted) or an invalid record (nothing from it on is trusted).
    ///
    /// - Parameter bodySizeLimit: The largest body a put may record (the cache's size limit).
    /// - Returns: The index, and the length of the valid prefix (0 when the header is bad).
    static func load(
        journal contents: UnsafeRawBufferPointer, bodySizeLimit: Int
    ) -> (index: DiskCacheIndex, validLength: Int) {
        guard DiskCacheJournalFormat.hasValidHeader(contents) else { return (DiskCacheIndex(), 0) }
        let records = UnsafeRawBufferPointer(rebasing: contents[DiskCacheJournalFormat.headerSize...])
        // A put takes at least this many bytes, so no more entries than this can result: the
        // reservation never exceeds what a compacted journal needs, nor a bound of its own.
        let possibleCount = records.count / DiskCacheJournalFormat.putRecordSize(validatorLength: 0)
        var index = DiskCacheIndex(expectedCount: min(possibleCount, maximumReservedCount))
        let outcome = DiskCacheJournalFormat.apply(records, to: &index, bodySizeLimit: bodySizeLimit)
        return (index, DiskCacheJournalFormat.headerSize + outcome.validLength)
    }
}

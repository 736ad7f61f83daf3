/// The disk cache's in-memory index: every entry the journal lists, found by digest without a
/// system call, in least-recently-used order.
///
/// Three flat arrays and no object per entry: `entries` (slots, reused through a free list, linked
/// into the LRU list by slot number), `table` (open addressing with linear probing from the
/// digest's first word, holding slot numbers) and `validators` (the entity tags, dates and
/// freshness fields, end to end). A slot costs ``DiskCacheIndexEntry``'s 72 bytes plus 8–16 bytes of table.
struct DiskCacheIndex: Sendable {
    private(set) var entries: [DiskCacheIndexEntry] = []
    /// Slot numbers, or -1 for an empty bucket; a power of two long, at most half full.
    private var table: [Int32]
    private var firstFreeSlot: Int32 = -1
    private var leastRecentSlot: Int32 = -1
    private var mostRecentSlot: Int32 = -1
    private var validators: [UInt8] = []
    /// Bytes of `validators` no entry refers to any more.
    private var unusedValidatorBytes = 0

    /// The number of entries.
    private(set) var count = 0
    /// The sum of the entries' body sizes.
    private(set) var bodyBytes = 0
    /// The bytes a journal holding one put record per entry (and nothing else) would take after
    /// its header: what compaction would leave.
    private(set) var liveRecordBytes = 0

    /// An empty index with room for `expectedCount` entries before it grows.
    init(expectedCount: Int = 0) {
        var buckets = 16
        while buckets < 2 * expectedCount { buckets *= 2 }
        table = [Int32](repeating: -1, count: buckets)
        entries.reserveCapacity(expectedCount)
    }

    /// The slot of the entry named `digest`, or nil.
    func slot(of digest: SHA256Digest) -> Int? {
        let mask = table.count - 1
        var bucket = Int(truncatingIfNeeded: digest.word0) & mask
        while true {
            let slot = table[bucket]
            if slot < 0 { return nil }
            if entries[Int(slot)].digest == digest { return Int(slot) }
            bucket = (bucket + 1) & mask
        }
    }

    /// The entry in `slot`, which must be live.
    func entry(at slot: Int) -> DiskCacheIndexEntry {
        entries[slot]
    }

    /// What the entry in `slot` records: size, validity, checksum.
    func info(at slot: Int) -> DiskCacheEntryInfo {
        DiskCacheEntryInfo(size: entries[slot].size, validity: validity(at: slot), checksum: entries[slot].bodyChecksum)
    }

    /// The response validity stored with the entry in `slot`.
    func validity(at slot: Int) -> ResponseValidity {
        let entry = entries[slot]
        let start = Int(entry.validatorOffset)
        let tagEnd = start + Int(entry.entityTagLength)
        let dateEnd = tagEnd + Int(entry.lastModifiedLength)
        var freshness: (maxAge: Double?, expires: Double?) = (nil, nil)
        if entry.flags & DiskCacheIndexEntry.Flag.hasFreshnessFields != 0 {
            freshness = validators.withUnsafeBytes {
                DiskCacheJournalFormat.freshnessFields(UnsafeRawBufferPointer(rebasing: $0[dateEnd...]))
            }
        }
        return ResponseValidity(
            freshUntil: entry.freshUntil,
            revalidatesEveryUse: entry.flags & DiskCacheIndexEntry.Flag.revalidatesEveryUse != 0,
            entityTag: entry.flags & DiskCacheIndexEntry.Flag.hasEntityTag != 0
                ? String(decoding: validators[start..<tagEnd], as: UTF8.self) : nil,
            lastModified: entry.flags & DiskCacheIndexEntry.Flag.hasLastModified != 0
                ? String(decoding: validators[tagEnd..<dateEnd], as: UTF8.self) : nil,
            maxAge: freshness.maxAge, expires: freshness.expires)
    }

    /// Calls `body` with the entry's validator bytes (entity tag, then last-modified date).
    func withValidatorBytes<Result>(at slot: Int, _ body: (UnsafeRawBufferPointer) -> Result) -> Result {
        let entry = entries[slot]
        let start = Int(entry.validatorOffset)
        return validators.withUnsafeBytes {
            body(UnsafeRawBufferPointer(rebasing: $0[start..<start + entry.validatorLength]))
        }
    }

    // MARK: - Changes

    /// The most body bytes the index sums: a journal whose checksums hold can still claim sizes
    /// that add up past `Int.max`, and the totals built on this one (journal and records about
    /// to be appended added) must never overflow.
    static let maximumBodyBytes = Int.max / 4

    /// Adds or replaces the entry named `digest` and makes it the most recently used, unless
    /// `size` is negative or would take ``bodyBytes`` past ``maximumBodyBytes``.
    ///
    /// - Parameters:
    ///   - flags: ``DiskCacheIndexEntry/Flag/stored`` bits.
    ///   - validatorBytes: The entity tag's `entityTagLength` bytes, then the date's, then the
    ///     freshness fields if `flags` says so.
    /// - Returns: Whether the entry was stored.
    @discardableResult
    mutating func put(
        _ digest: SHA256Digest, size: Int, checksum: UInt32, freshUntil: Double, flags: UInt8,
        entityTagLength: Int, lastModifiedLength: Int, validatorBytes: UnsafeRawBufferPointer
    ) -> Bool {
        guard size >= 0 else { return false }
        let existing = slot(of: digest)
        // Both sizes are at least 0, so their difference cannot overflow; the sum can.
        let delta = size - (existing.map { entries[$0].size } ?? 0)
        let (newBodyBytes, overflow) = bodyBytes.addingReportingOverflow(delta)
        guard !overflow, newBodyBytes <= Self.maximumBodyBytes else { return false }
        let validatorOffset = storeValidators(validatorBytes)
        let recordBytes = DiskCacheJournalFormat.putRecordSize(validatorLength: validatorBytes.count)
        bodyBytes = newBodyBytes
        if let slot = existing {
            let old = entries[slot]
            liveRecordBytes += recordBytes - DiskCacheJournalFormat.putRecordSize(validatorLength: old.validatorLength)
            unusedValidatorBytes += old.validatorLength
            entries[slot].size = size
            entries[slot].bodyChecksum = checksum
            entries[slot].freshUntil = freshUntil
            entries[slot].validatorOffset = validatorOffset
            entries[slot].entityTagLength = UInt16(entityTagLength)
            entries[slot].lastModifiedLength = UInt16(lastModifiedLength)
            entries[slot].flags =
                (old.flags & ~DiskCacheIndexEntry.Flag.stored) | (flags & DiskCacheIndexEntry.Flag.stored)
            moveToMostRecent(slot)
        } else {
            let entry = DiskCacheIndexEntry(
                digest: digest, size: size, freshUntil: freshUntil, bodyChecksum: checksum,
                validatorOffset: validatorOffset, entityTagLength: UInt16(entityTagLength),
                lastModifiedLength: UInt16(lastModifiedLength), lessRecent: -1, moreRecent: -1,
                flags: (flags & DiskCacheIndexEntry.Flag.stored) | DiskCacheIndexEntry.Flag.live)
            let slot = allocateSlot(for: entry)
            insertIntoTable(slot: slot)
            linkAsMostRecent(slot)
            count += 1
            liveRecordBytes += recordBytes
        }
        compactValidatorsIfWasteful()
        return true
    }

    /// Removes the entry named `digest`; returns whether there was one.
    @discardableResult
    mutating func remove(_ digest: SHA256Digest) -> Bool {
        let mask = table.count - 1
        var bucket = Int(truncatingIfNeeded: digest.word0) & mask
        while true {
            let slot = table[bucket]
            if slot < 0 { return false }
            if entries[Int(slot)].digest == digest { break }
            bucket = (bucket + 1) & mask
        }
        let slot = Int(table[bucket])
        removeFromTable(bucket: bucket)
        unlink(slot)
        let old = entries[slot]
        count -= 1
        bodyBytes -= old.size
        liveRecordBytes -= DiskCacheJournalFormat.putRecordSize(validatorLength: old.validatorLength)
        unusedValidatorBytes += old.validatorLength
        entries[slot].flags = 0
        entries[slot].moreRecent = firstFreeSlot
        firstFreeSlot = Int32(slot)
        compactValidatorsIfWasteful()
        return true
    }

    /// Makes the entry named `digest`, if any, the most recently used.
    mutating func touch(_ digest: SHA256Digest) {
        if let slot = slot(of: digest) { moveToMostRecent(slot) }
    }

    /// Makes the entry in `slot` the most recently used.
    mutating func touch(slot: Int) {
        moveToMostRecent(slot)
    }

    /// Marks the entry in `slot` as used since the journal last heard of it; returns false when it
    /// was marked already.
    mutating func markTouchPending(slot: Int) -> Bool {
        guard entries[slot].flags & DiskCacheIndexEntry.Flag.touchPending == 0 else { return false }
        entries[slot].flags |= DiskCacheIndexEntry.Flag.touchPending
        return true
    }

    /// Clears the mark of ``markTouchPending(slot:)`` on the entry named `digest`; returns whether
    /// the entry exists.
    @discardableResult
    mutating func clearTouchPending(_ digest: SHA256Digest) -> Bool {
        guard let slot = slot(of: digest) else { return false }
        entries[slot].flags &= ~DiskCacheIndexEntry.Flag.touchPending
        return true
    }

    // MARK: - Order

    /// The least recently used entry's slot, or nil when empty.
    var leastRecentlyUsedSlot: Int? { leastRecentSlot < 0 ? nil : Int(leastRecentSlot) }

    /// The slot used next after `slot`, towards the most recently used, or nil.
    func slot(usedAfter slot: Int) -> Int? {
        let next = entries[slot].moreRecent
        return next < 0 ? nil : Int(next)
    }

    /// The live slots from the least to the most recently used.
    var slotsFromLeastRecent: [Int] {
        var slots: [Int] = []
        slots.reserveCapacity(count)
        var slot = leastRecentSlot
        while slot >= 0 {
            slots.append(Int(slot))
            slot = entries[Int(slot)].moreRecent
        }
        return slots
    }

    // MARK: - Slots and table

    private mutating func allocateSlot(for entry: DiskCacheIndexEntry) -> Int {
        if firstFreeSlot >= 0 {
            let slot = Int(firstFreeSlot)
            firstFreeSlot = entries[slot].moreRecent
            entries[slot] = entry
            return slot
        }
        precondition(entries.count < Int(Int32.max), "the disk cache index holds at most 2^31 entries")
        if entries.count == entries.capacity {
            // A quarter more rather than Array's doubling: a full index would otherwise carry up
            // to 72 unused bytes per entry.
            entries.reserveCapacity(max(64, entries.count + entries.count / 4))
        }
        entries.append(entry)
        return entries.count - 1
    }

    private mutating func insertIntoTable(slot: Int) {
        if 2 * (count + 1) > table.count { rehash(buckets: table.count * 2) }
        let mask = table.count - 1
        var bucket = Int(truncatingIfNeeded: entries[slot].digest.word0) & mask
        while table[bucket] >= 0 { bucket = (bucket + 1) & mask }
        table[bucket] = Int32(slot)
    }

    private mutating func rehash(buckets: Int) {
        var newTable = [Int32](repeating: -1, count: buckets)
        let mask = buckets - 1
        for slot in table where slot >= 0 {
            var bucket = Int(truncatingIfNeeded: entries[Int(slot)].digest.word0) & mask
            while newTable[bucket] >= 0 { bucket = (bucket + 1) & mask }
            newTable[bucket] = slot
        }
        table = newTable
    }

    /// Empties `bucket`, shifting later members of its probe run back so that no lookup passes an
    /// empty bucket before its entry (linear probing without tombstones).
    private mutating func removeFromTable(bucket: Int) {
        let mask = table.count - 1
        var hole = bucket
        var next = bucket
        while true {
            next = (next + 1) & mask
            let slot = table[next]
            if slot < 0 { break }
            let home = Int(truncatingIfNeeded: entries[Int(slot)].digest.word0) & mask
            // The member stays when its home lies cyclically in (hole, next]: moving it would put
            // it before its home.
            let staysPut = hole <= next ? (hole < home && home <= next) : (hole < home || home <= next)
            if !staysPut {
                table[hole] = slot
                hole = next
            }
        }
        table[hole] = -1
    }

    // MARK: - LRU list

    private mutating func linkAsMostRecent(_ slot: Int) {
        entries[slot].lessRecent = mostRecentSlot
        entries[slot].moreRecent = -1
        if mostRecentSlot >= 0 {
            entries[Int(mostRecentSlot)].moreRecent = Int32(slot)
        } else {
            leastRecentSlot = Int32(slot)
        }
        mostRecentSlot = Int32(slot)
    }

    private mutating func unlink(_ slot: Int) {
        let lessRecent = entries[slot].lessRecent
        let moreRecent = entries[slot].moreRecent
        if lessRecent >= 0 { entries[Int(lessRecent)].moreRecent = moreRecent } else { leastRecentSlot = moreRecent }
        if moreRecent >= 0 { entries[Int(moreRecent)].lessRecent = lessRecent } else { mostRecentSlot = lessRecent }
    }

    private mutating func moveToMostRecent(_ slot: Int) {
        guard mostRecentSlot != Int32(slot) else { return }
        unlink(slot)
        linkAsMostRecent(slot)
    }

    // MARK: - Validators

    private mutating func storeValidators(_ bytes: UnsafeRawBufferPointer) -> UInt32 {
        let offset = validators.count
        precondition(offset + bytes.count <= Int(UInt32.max), "validator storage beyond 4 GiB")
        validators.append(contentsOf: bytes)
        return UInt32(offset)
    }

    /// Rewrites the validator storage without its unused bytes once they are the larger part,
    /// so it never holds more than twice what the entries use (amortized O(1) per change).
    private mutating func compactValidatorsIfWasteful() {
        guard unusedValidatorBytes > 4_096, unusedValidatorBytes * 2 > validators.count else { return }
        var compacted: [UInt8] = []
        compacted.reserveCapacity(validators.count - unusedValidatorBytes)
        for slot in entries.indices where entries[slot].isLive {
            let start = Int(entries[slot].validatorOffset)
            entries[slot].validatorOffset = UInt32(compacted.count)
            compacted.append(contentsOf: validators[start..<start + entries[slot].validatorLength])
        }
        validators = compacted
        unusedValidatorBytes = 0
    }
}

extension DiskCacheIndex {
    /// The bytes the index's storage occupies, allocated capacity included.
    var memoryFootprint: Int {
        entries.capacity * MemoryLayout<DiskCacheIndexEntry>.stride + table.capacity * MemoryLayout<Int32>.stride
            + validators.capacity
    }

    /// Traps unless the table, the slots, the LRU list and the running totals agree.
    func checkInvariants() {
        var liveSlots = 0
        var sizes = 0
        var records = 0
        var usedValidatorBytes = 0
        for (slot, entry) in entries.enumerated() where entry.isLive {
            liveSlots += 1
            sizes += entry.size
            records += DiskCacheJournalFormat.putRecordSize(validatorLength: entry.validatorLength)
            usedValidatorBytes += entry.validatorLength
            precondition(Int(entry.validatorOffset) + entry.validatorLength <= validators.count, "validators in bounds")
            precondition(self.slot(of: entry.digest) == slot, "the table finds slot \(slot)")
        }
        precondition(liveSlots == count, "live slots \(liveSlots) ≠ count \(count)")
        precondition(table.filter { $0 >= 0 }.count == count, "table members ≠ count")
        precondition(sizes == bodyBytes, "Σ sizes \(sizes) ≠ bodyBytes \(bodyBytes)")
        precondition(records == liveRecordBytes, "Σ record sizes \(records) ≠ liveRecordBytes \(liveRecordBytes)")
        precondition(usedValidatorBytes + unusedValidatorBytes == validators.count, "validator bytes accounted")
        var forward = 0
        var previous: Int32 = -1
        var slot = leastRecentSlot
        while slot >= 0 {
            precondition(entries[Int(slot)].isLive, "the LRU list holds live slots only")
            precondition(entries[Int(slot)].lessRecent == previous, "LRU back link of slot \(slot)")
            forward += 1
            precondition(forward <= count, "the LRU list has a cycle")
            previous = slot
            slot = entries[Int(slot)].moreRecent
        }
        precondition(previous == mostRecentSlot, "the LRU list ends at its most recent slot")
        precondition(forward == count, "LRU list length \(forward) ≠ count \(count)")
        var free = 0
        var freeSlot = firstFreeSlot
        while freeSlot >= 0 {
            precondition(!entries[Int(freeSlot)].isLive, "the free list holds free slots only")
            free += 1
            freeSlot = entries[Int(freeSlot)].moreRecent
        }
        precondition(free + count == entries.count, "every slot is live or free")
    }
}

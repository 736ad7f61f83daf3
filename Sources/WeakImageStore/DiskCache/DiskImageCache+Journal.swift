import Foundation

/// The journal transactions behind every change: this process's lock and the folder's lock file,
/// catching up with other processes, eviction within the size limit, compaction.
extension DiskImageCache {
    /// Counts an error the caller does not see: the cache degrades to a miss or a skipped write.
    func countError() {
        state.withLock { $0.statistics.errors += 1 }
    }

    /// Counts a failed journal transaction as an error, unless another process's lock stopped it
    /// (counted as a lock timeout already).
    func countFailure(_ failure: DiskCacheFileFailure) {
        if !failure.isLockHeldElsewhere { countError() }
    }

    /// Runs `body` holding this process's journal lock and the folder's lock file, after
    /// catching up with what other processes appended.
    ///
    /// Waits up to ``lockTimeout`` for another process's lock, not at all while the last try
    /// found it held past the deadline; a lock still held throws, counted as a lock timeout.
    func withJournal<Value>(
        _ body: (inout DiskCacheJournal) throws(DiskCacheFileFailure) -> Value
    ) throws(DiskCacheFileFailure) -> Value {
        try journal.withLock { journal in
            Result(typedCatching: { () throws(DiskCacheFileFailure) -> Value in
                let wasContended = state.withLock { $0.isLockContended }
                do throws(DiskCacheFileFailure) {
                    try journal.lock(waitingUpTo: wasContended ? 0 : lockTimeout)
                } catch {
                    if error.isLockHeldElsewhere {
                        state.withLock { state in
                            state.statistics.lockTimeouts += 1
                            state.isLockContended = true
                        }
                    }
                    throw error
                }
                defer { journal.unlock() }
                if wasContended { state.withLock { $0.isLockContended = false } }
                try synchronize(&journal)
                return try body(&journal)
            })
        }.typedGet()
    }

    /// Applies what other processes wrote to the journal since this one last read it.
    private func synchronize(_ journal: inout DiskCacheJournal) throws(DiskCacheFileFailure) {
        switch try journal.changes() {
        case .unchanged:
            return
        case .appended(let tail):
            let known = journal.knownLength
            let outcome = state.withLock { state in
                // Valid records only count: a damaged tail is cut off below.
                let outcome = state.apply(tail, journalLength: known)
                state.journalBytes = known + outcome.validLength
                return outcome
            }
            journal.knownLength = known + outcome.validLength
            if outcome.isDamaged {
                journal.truncate(to: journal.knownLength)
                let index = state.withLock { $0.index }
                bodies.removeUnlisted { index.slot(of: $0) != nil }
            }
        case .replaced(let contents, let isCut):
            let (index, isDamaged) = journal.loadIndex(
                from: contents, isCut: isCut, bodies: bodies, bodySizeLimit: sizeLimit)
            let knownLength = journal.knownLength
            state.withLock { $0.replaceIndex(with: index, journalLength: knownLength, isDamaged: isDamaged) }
        }
    }

    /// Appends `records` behind touch records for recent hits and remove records for the least
    /// recently used entries that must go (their bodies deleted first) for the total — bodies
    /// changed by `bodyDelta`, journal grown by every appended byte — to stay within the limit.
    /// Compacts the journal first when it is mostly dead records.
    ///
    /// - Returns: The bytes appended and the number of evictions, or nil when the change cannot
    ///   fit even with every other entry evicted (nothing was appended).
    func appendWithinLimit(
        _ records: [UInt8], bodyDelta: Int, sparing spared: SHA256Digest?, journal: inout DiskCacheJournal,
        beforeAppending: () -> Void = {}
    ) throws(DiskCacheFileFailure) -> (bytes: [UInt8], evictions: Int)? {
        if state.withLock({ $0.journalIsMostlyDead }) { compact(&journal) }
        let limit = sizeLimit
        var plan = state.withLock { $0.planAppend(records, bodyDelta: bodyDelta, sparing: spared, limit: limit) }
        if plan == nil, state.withLock({ $0.journalHasDeadRecords }) {
            compact(&journal)
            plan = state.withLock { $0.planAppend(records, bodyDelta: bodyDelta, sparing: spared, limit: limit) }
        }
        guard let plan else { return nil }
        for victim in plan.victims { bodies.removeBody(of: victim) }
        beforeAppending()
        try journal.append(plan.bytes)
        return (plan.bytes, plan.victims.count)
    }

    /// Applies records this process appended to its index.
    func apply(
        _ bytes: [UInt8], evictions: Int, journal: DiskCacheJournal,
        counting: (inout DiskCacheStatistics) -> Void = { _ in }
    ) {
        let knownLength = journal.knownLength
        state.withLock { state in
            let outcome = state.apply(bytes, journalLength: knownLength)
            assert(!outcome.isDamaged, "records this process encoded parse")
            state.statistics.evictions += evictions
            counting(&state.statistics)
        }
    }

    /// Deletes the body of `digest`, then appends its remove record: a crash in between leaves a
    /// record whose body is missing, which reads as a miss.
    func removeEntry(_ digest: SHA256Digest, size: Int, journal: inout DiskCacheJournal)
        throws(DiskCacheFileFailure)
    {
        var removal: [UInt8] = []
        DiskCacheJournalFormat.appendDigestRecord(.remove, digest, to: &removal)
        let appended = try appendWithinLimit(
            removal, bodyDelta: -size, sparing: digest, journal: &journal,
            beforeAppending: { bodies.removeBody(of: digest) })
        guard let appended else {
            throw DiskCacheFileFailure(action: "append to", path: journal.layout.journalPath, code: ENOSPC)
        }
        apply(appended.bytes, evictions: appended.evictions, journal: journal)
    }

    /// Evicts down to the limit: the folder was last used with a larger one.
    func trimToLimit() {
        do {
            try withJournal { journal throws(DiskCacheFileFailure) in
                guard let appended = try appendWithinLimit([], bodyDelta: 0, sparing: nil, journal: &journal) else {
                    return
                }
                apply(appended.bytes, evictions: appended.evictions, journal: journal)
            }
        } catch {
            countFailure(error)
        }
    }

    /// Rewrites the journal as one put record per entry; on failure the journal stays as it was.
    private func compact(_ journal: inout DiskCacheJournal) {
        let snapshot = state.withLock { $0.compactedJournal() }
        do {
            try journal.replace(with: snapshot)
            let knownLength = journal.knownLength
            state.withLock { $0.journalBytes = knownLength }
        } catch {
            countError()
        }
    }
}

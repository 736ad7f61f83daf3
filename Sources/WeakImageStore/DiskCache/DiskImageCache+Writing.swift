import Foundation

/// Changing entries: bodies written then renamed into place, validity refreshed, entries removed.
extension DiskImageCache {
    /// Stores `data` as `identity`'s body with `validity`, replacing any.
    ///
    /// The body goes to a temporary file in the cache's folder, its journal record is appended,
    /// then the file is renamed into place; least recently used entries are evicted first so
    /// that the total stays within the limit when this returns. Counts a write.
    ///
    /// - Returns: Whether the body was stored: false when it is larger than the limit.
    /// - Throws: ``DiskCacheError/writeFailed(_:reason:)`` when the disk refused the body or the
    ///   journal record; nothing partial was kept.
    @discardableResult
    func write(
        _ data: Data, validity: ResponseValidity, for identity: SourceIdentity, digest known: SHA256Digest? = nil
    ) throws(DiskCacheError) -> Bool {
        let digest = known ?? Self.digest(of: identity)
        let checksum = data.withUnsafeBytes { CRC32.checksum($0) }
        var putRecord: [UInt8] = []
        DiskCacheJournalFormat.appendPut(
            digest, size: data.count, checksum: checksum, validity: validity, to: &putRecord)
        guard DiskCacheJournalFormat.headerSize + putRecord.count + data.count <= sizeLimit else { return false }
        let temporaryFile: DiskCacheBodyFiles.TemporaryFile
        do {
            temporaryFile = try bodies.writeTemporary(data)
        } catch {
            countError()
            throw .writeFailed(identity, reason: error.description)
        }
        var installed = false
        defer { if !installed { bodies.removeTemporary(temporaryFile) } }
        do throws(DiskCacheFileFailure) {
            return try withJournal { journal throws(DiskCacheFileFailure) -> Bool in
                let replacedSize = state.withLock { state in
                    state.index.slot(of: digest).map { state.index.entry(at: $0).size }
                }
                guard
                    let appended = try appendWithinLimit(
                        putRecord, bodyDelta: data.count - (replacedSize ?? 0), sparing: digest, journal: &journal,
                        beforeAppending: {
                            // Gone before the new record: a crash in between leaves a miss, never
                            // the old body under the new record's name.
                            if replacedSize != nil { bodies.removeBody(of: digest) }
                        })
                else { return false }
                do throws(DiskCacheFileFailure) {
                    try bodies.install(temporaryFile, as: digest)
                    installed = true
                } catch {
                    var removal: [UInt8] = []
                    DiskCacheJournalFormat.appendDigestRecord(.remove, digest, to: &removal)
                    let removed = (try? journal.append(removal)) != nil
                    apply(appended.bytes + (removed ? removal : []), evictions: appended.evictions, journal: journal)
                    throw error
                }
                apply(appended.bytes, evictions: appended.evictions, journal: journal) { $0.writes += 1 }
                return true
            }
        } catch {
            countFailure(error)
            throw .writeFailed(identity, reason: error.description)
        }
    }

    /// Replaces the validity of `identity`'s entry after a `304 Not Modified`; the body stays.
    /// Counts a revalidation. Does nothing on a miss.
    func updateValidity(_ validity: ResponseValidity, for identity: SourceIdentity, digest known: SHA256Digest? = nil) {
        let digest = known ?? Self.digest(of: identity)
        do {
            try withJournal { journal throws(DiskCacheFileFailure) in
                guard
                    let current = state.withLock({ state in
                        state.index.slot(of: digest).map { state.index.entry(at: $0) }
                    })
                else {
                    return
                }
                var record: [UInt8] = []
                DiskCacheJournalFormat.appendPut(
                    digest, size: current.size, checksum: current.bodyChecksum, validity: validity, to: &record)
                guard let appended = try appendWithinLimit(record, bodyDelta: 0, sparing: digest, journal: &journal)
                else { return }
                apply(appended.bytes, evictions: appended.evictions, journal: journal) { $0.revalidations += 1 }
            }
        } catch {
            countFailure(error)
        }
    }

    /// Removes `identity`'s entry and body, if any.
    func remove(_ identity: SourceIdentity, digest known: SHA256Digest? = nil) {
        let digest = known ?? Self.digest(of: identity)
        do {
            try withJournal { journal throws(DiskCacheFileFailure) in
                guard
                    let size = state.withLock({ state in
                        state.index.slot(of: digest).map { state.index.entry(at: $0).size }
                    })
                else {
                    return
                }
                try removeEntry(digest, size: size, journal: &journal)
            }
        } catch {
            bodies.removeBody(of: digest)
            state.withLock { state in
                state.index.remove(digest)
                if !error.isLockHeldElsewhere { state.statistics.errors += 1 }
            }
        }
    }
}

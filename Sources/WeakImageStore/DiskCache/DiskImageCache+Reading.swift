import Foundation

/// Reading a body: verified against its record, a damaged one settled under the journal lock.
extension DiskImageCache {
    /// Reads `identity`'s body and verifies its length and checksum.
    ///
    /// Counts a hit (and makes the entry the most recently used) or a miss. A body that fails
    /// verification (or is missing, or a symbolic link) is deleted, dropped from the index and
    /// counted as an error; one the system cannot open or read for now (no descriptor left, an
    /// I/O error) is a miss and an error, and stays.
    ///
    /// - Returns: The exact bytes stored and their validity, or nil on a miss.
    /// - Throws: ``DiskCacheError`` naming the entry and what was wrong with its body.
    func read(
        _ identity: SourceIdentity, digest known: SHA256Digest? = nil
    ) throws(DiskCacheError) -> (data: Data, validity: ResponseValidity)? {
        let digest = known ?? Self.digest(of: identity)
        let recorded: DiskCacheEntryInfo? = state.withLock { state in
            let info = state.info(of: digest)
            if info == nil { state.statistics.misses += 1 }
            return info
        }
        guard let recorded else { return nil }
        switch bodies.readBody(of: digest, size: recorded.size, checksum: recorded.checksum) {
        case .success(let data):
            state.withLock { $0.countHit(digest) }
            return (data, recorded.validity)
        case .failure(.failed(let failure)):
            // The system refused for now (EMFILE, EIO, EACCES…): the body may be whole, so it stays.
            state.withLock { state in
                state.statistics.misses += 1
                state.statistics.errors += 1
            }
            throw .readFailed(identity, reason: failure.description)
        case .failure(let problem):
            return try recover(identity, digest: digest, recorded: recorded, problem: problem)
        }
    }

    /// Settles a body that could not be read, under the journal lock: there the index and the
    /// files agree unless something outside the cache changed them. A body replaced or evicted
    /// meanwhile by another thread or process is read again or is a miss; otherwise the body is
    /// damaged, and goes.
    private func recover(
        _ identity: SourceIdentity, digest: SHA256Digest, recorded: DiskCacheEntryInfo,
        problem: DiskCacheBodyFiles.ReadProblem
    ) throws(DiskCacheError) -> (data: Data, validity: ResponseValidity)? {
        var problem = problem
        var recordedNow = recorded
        let outcome: Result<(data: Data, validity: ResponseValidity)?, DiskCacheError>
        do {
            outcome = try withJournal { journal throws(DiskCacheFileFailure) in
                let current = state.withLock { $0.info(of: digest) }
                guard let current else {
                    state.withLock { $0.statistics.misses += 1 }
                    return .success(nil)
                }
                recordedNow = current
                if current != recorded {
                    switch bodies.readBody(of: digest, size: current.size, checksum: current.checksum) {
                    case .success(let data):
                        state.withLock { $0.countHit(digest) }
                        return .success((data, current.validity))
                    case .failure(let again):
                        problem = again
                    }
                }
                do {
                    try removeEntry(digest, size: current.size, journal: &journal)
                } catch {
                    // The body is deleted already; the entry at least leaves this process's index.
                    state.withLock { _ = $0.index.remove(digest) }
                }
                countError()
                return .failure(DiskCacheError(problem, identity: identity, recorded: current))
            }
        } catch {
            bodies.removeBody(of: digest)
            state.withLock { state in
                state.index.remove(digest)
                if !error.isLockHeldElsewhere { state.statistics.errors += 1 }
            }
            throw DiskCacheError(problem, identity: identity, recorded: recordedNow)
        }
        return try outcome.typedGet()
    }
}

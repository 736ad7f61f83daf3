import Foundation

/// Downloaded image bytes on disk: an index that a crash cannot poison, bodies that are either
/// whole or absent, a hard size limit, and a lock file so that several processes can share one
/// folder. See <doc:DiskCache> for the format and the guarantees.
///
/// Only network pictures are kept: requests for an `http` or `https` URL, under their URL's
/// canonical form or their cache key. Names, files and data providers are never stored.
///
/// ```swift
/// let cache = try DiskImageCache(directory: cachesFolder.appendingPathComponent("Pictures"))
/// cache.storeData(body, for: .url(pictureURL))
/// let bytes = cache.data(for: .url(pictureURL))   // the same bytes, or nil
/// ```
///
/// Every method is thread-safe. A missing or damaged entry is a miss, never an error the caller
/// sees and never altered bytes: the cache degrades to the network, never to a crash.
public final class DiskImageCache: Sendable {
    /// The folder the cache lives in.
    public let directory: URL
    /// The most bytes the cache keeps in its folder: bodies plus its own index.
    public let sizeLimit: Int
    /// How long a response that says nothing about its freshness stays fresh, in seconds.
    public let defaultLifetime: TimeInterval
    /// The longest any response stays fresh, in seconds, whatever its headers say.
    public let maximumLifetime: TimeInterval

    /// How long a journal transaction waits for another process's lock, in seconds.
    let lockTimeout: TimeInterval
    /// The bytes downloads bound for the cache may keep in ``temporaryDirectory`` at once:
    /// ``sizeLimit``.
    let temporaryBudget: DiskCacheTemporaryBudget
    private let bodies: DiskCacheBodyFiles
    private let state: Lock<DiskCacheState>
    // Unlike `state`, held across I/O on purpose: it serializes this process's journal
    // transactions as `flock` serializes processes. Always taken before `state`, never inside it.
    private let journal: Lock<DiskCacheJournal>

    /// Opens the cache in `directory`, creating the folder (`0700`, files in it `0600`) if needed.
    ///
    /// Reads the index once; never lists the folder unless the index was found damaged (then
    /// bodies it no longer lists are deleted). Deletes temporary files that crashed writers left.
    ///
    /// The folder must belong to the user the process runs as and be writable by nobody else,
    /// and must not be a symbolic link: another user who prepared it could otherwise lead the
    /// cache to read, write or delete their choice of files. Inside it, nothing is reached through
    /// a symbolic link; a link or another user's entry is damage, deleted without being followed.
    ///
    /// When another process holds the folder's lock for more than a second, opening returns
    /// anyway: the cache serves misses and skips writes until a later write takes the lock.
    ///
    /// - Parameters:
    ///   - directory: The cache's folder; give it to one cache only (other processes may share
    ///     it).
    ///   - sizeLimit: The most bytes the cache keeps: every byte it puts in `directory`, bodies
    ///     and its own index. Must be positive. Defaults to 150 MiB.
    ///   - defaultLifetime: How long a response without freshness information stays fresh, in
    ///     seconds. Defaults to 7 days.
    ///   - maximumLifetime: The longest any response stays fresh, in seconds, whatever its
    ///     headers say; then it is revalidated (a `304` costs no body). Must be positive.
    ///     Defaults to 30 days: a server's `max-age` of 68 years, or a captive portal's, would
    ///     otherwise hold an answer that long without asking again.
    /// - Throws: ``ImageStoreError/diskCacheUnavailable(_:reason:)`` when the folder cannot be
    ///   created, is not trusted (a symbolic link, another user's, writable by others), or its
    ///   index cannot be opened at all.
    public convenience init(
        directory: URL, sizeLimit: Int = 150 * 1024 * 1024, defaultLifetime: TimeInterval = 7 * 24 * 3600,
        maximumLifetime: TimeInterval = 30 * 24 * 3600
    ) throws(ImageStoreError) {
        try self.init(
            directory: directory, sizeLimit: sizeLimit, defaultLifetime: defaultLifetime,
            maximumLifetime: maximumLifetime, fileSystem: .posix)
    }

    /// Opens the cache with `fileSystem` doing its writes (tests inject faults through it).
    ///
    /// - Parameters:
    ///   - lockTimeout: How long a journal transaction, opening included, waits for another
    ///     process's lock, in seconds. Defaults to 1.
    ///   - boot: Which boot of the machine this is (``DiskCacheBootMarker``); the first open after
    ///     another deletes bodies the index does not name. Defaults to the current boot's.
    init(
        directory: URL, sizeLimit: Int, defaultLifetime: TimeInterval = 7 * 24 * 3600,
        maximumLifetime: TimeInterval = 30 * 24 * 3600, fileSystem: DiskCacheFileSystem,
        lockTimeout: TimeInterval = 1, boot: String? = DiskCacheBootMarker.currentBoot
    ) throws(ImageStoreError) {
        precondition(sizeLimit > 0, "sizeLimit must be positive")
        precondition(defaultLifetime >= 0, "defaultLifetime must not be negative")
        precondition(maximumLifetime > 0, "maximumLifetime must be positive")
        self.directory = directory
        self.sizeLimit = sizeLimit
        self.defaultLifetime = defaultLifetime
        self.maximumLifetime = maximumLifetime
        self.lockTimeout = lockTimeout
        temporaryBudget = DiskCacheTemporaryBudget(limit: sizeLimit)
        let layout = DiskCacheLayout(directory: directory.standardizedFileURL.path)
        let folders: DiskCacheFolders
        do {
            folders = try DiskCacheFolders(layout: layout, fileSystem: fileSystem)
        } catch {
            throw .diskCacheUnavailable(directory, reason: error.description)
        }
        bodies = DiskCacheBodyFiles(folders: folders)
        var journal = DiskCacheJournal(folders: folders, sizeLimit: sizeLimit)
        var state = DiskCacheState(bodySizeLimit: sizeLimit)
        do throws(DiskCacheFileFailure) {
            try journal.lock(waitingUpTo: lockTimeout)
            defer { journal.unlock() }
            guard case .replaced(let contents, let isCut) = try journal.changes() else {
                preconditionFailure("a journal opened for the first time is read whole")
            }
            let (index, isDamaged) = journal.loadIndex(
                from: contents, isCut: isCut, bodies: bodies, bodySizeLimit: sizeLimit)
            state.replaceIndex(with: index, journalLength: journal.knownLength, isDamaged: isDamaged)
            if let boot, DiskCacheBootMarker.mark(boot, in: folders) != .sameBoot, !isDamaged, index.count > 0 {
                // A power loss may have kept a body's rename and lost its record (a damaged
                // journal was swept already).
                bodies.removeUnlisted { index.slot(of: $0) != nil }
            }
            bodies.removeAbandonedTemporaryFiles()
        } catch {
            guard error.isLockHeldElsewhere else {
                journal.closeFiles()
                throw .diskCacheUnavailable(directory, reason: error.description)
            }
            // Opening must not hang the launch: the index is read by the first write that gets
            // the lock (its journal is not open yet, so it is read whole).
            state.statistics.lockTimeouts += 1
            state.isLockContended = true
        }
        self.state = Lock(state)
        self.journal = Lock(journal)
        if state.totalSize > sizeLimit { trimToLimit() }
    }

    deinit {
        journal.withLock { $0.closeFiles() }
    }

    // MARK: - Public API

    /// The bytes the cache keeps in its folder: every body plus its index.
    public var totalSize: Int {
        state.withLock { $0.totalSize }
    }

    /// The number of entries.
    public var count: Int {
        state.withLock { $0.index.count }
    }

    /// Whether the cache holds bytes for `request`; answered from memory, without a system
    /// call.
    ///
    /// - Parameter request: A request; only `http` and `https` URLs are ever stored.
    /// - Returns: Whether ``data(for:)`` would find an entry (which it still verifies).
    public func containsData(for request: ImageRequest) -> Bool {
        guard let source = Self.storedSource(of: request) else { return false }
        return entry(for: source.identity, digest: source.diskCacheDigest) != nil
    }

    /// The bytes stored for `request`, exactly as stored, or nil.
    ///
    /// Counts as a use of the entry for the least-recently-used order. A body that fails its
    /// length or checksum check is deleted and reported as nil.
    ///
    /// - Parameter request: A request; only `http` and `https` URLs are ever stored.
    /// - Returns: The bytes, or nil on a miss.
    /// - Complexity: Reads the whole body once.
    public func data(for request: ImageRequest) -> Data? {
        guard let source = Self.storedSource(of: request) else { return nil }
        return (try? read(source.identity, digest: source.diskCacheDigest))?.data
    }

    /// Stores `data` for `request`, fresh for ``defaultLifetime`` seconds (at most
    /// ``maximumLifetime``), replacing any.
    ///
    /// Returns once the bytes are in place and the size limit holds again (least recently used
    /// entries evicted). Does nothing for requests that are not `http` or `https` URLs, for a
    /// body larger than the limit, or when the disk refuses the write.
    ///
    /// - Parameters:
    ///   - data: The response body.
    ///   - request: The request it answers.
    public func storeData(_ data: Data, for request: ImageRequest) {
        guard let source = Self.storedSource(of: request) else { return }
        let validity = ResponseValidity(
            freshUntil: Date().timeIntervalSince1970 + min(defaultLifetime, maximumLifetime),
            revalidatesEveryUse: false,
            entityTag: nil, lastModified: nil)
        _ = try? write(data, validity: validity, for: source.identity, digest: source.diskCacheDigest)
    }

    /// Removes the bytes stored for `request`, if any.
    ///
    /// - Parameter request: A request; only `http` and `https` URLs are ever stored.
    public func removeData(for request: ImageRequest) {
        guard let source = Self.storedSource(of: request) else { return }
        remove(source.identity, digest: source.diskCacheDigest)
    }

    /// Removes every entry, this process's and every other's sharing the folder.
    public func removeAll() {
        do {
            try withJournal { journal throws(DiskCacheFileFailure) in
                bodies.removeAllBodies()
                do {
                    try journal.replace(with: DiskCacheJournalFormat.header)
                } catch {
                    // A full disk can refuse even the small temporary file: cut the journal in place.
                    journal.truncate(to: DiskCacheJournalFormat.headerSize)
                }
                let journalLength = journal.knownLength
                state.withLock {
                    $0.replaceIndex(with: DiskCacheIndex(), journalLength: journalLength, isDamaged: false)
                }
            }
        } catch {
            countFailure(error)
        }
    }

    // MARK: - Engine API

    /// What the index records about `identity`'s entry, or nil on a miss. No I/O.
    ///
    /// - Parameter known: The identity's digest, when the caller has it (a URL's is computed
    ///   once, when its request is made).
    func entry(for identity: SourceIdentity, digest known: SHA256Digest? = nil) -> DiskCacheEntryInfo? {
        let digest = known ?? Self.digest(of: identity)
        return state.withLock { $0.info(of: digest) }
    }

    /// Counts a lookup that found no entry without asking ``read(_:)``, which would count it too.
    func recordMiss() {
        state.withLock { $0.statistics.misses += 1 }
    }

    /// Where downloads bound for the cache are written as they arrive: its temporary folder, on
    /// the same file system as the bodies. Files there named after a process that no longer
    /// runs are deleted when a cache opens. What downloads keep there at once is bounded by
    /// ``temporaryBudget``.
    var temporaryDirectory: URL {
        URL(fileURLWithPath: bodies.layout.temporaryFolder, isDirectory: true)
    }

    /// What the cache did since it was opened.
    var statistics: DiskCacheStatistics {
        state.withLock { $0.statistics }
    }

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

    /// Traps unless the index's tables agree with each other and the total size with the journal
    /// and the bodies. For tests.
    func _checkInvariants() {
        journal.withLock { journal in
            state.withLock { state in
                state.index.checkInvariants()
                precondition(
                    state.journalBytes == journal.knownLength,
                    "journal bytes \(state.journalBytes) ≠ the journal's known length \(journal.knownLength)")
                precondition(state.totalSize <= sizeLimit, "the total exceeds the limit")
            }
        }
    }

    /// The bytes of memory the index occupies. For tests.
    var _indexMemoryFootprint: Int {
        state.withLock { $0.index.memoryFootprint }
    }

    // MARK: - Reading

    private func countError() {
        state.withLock { $0.statistics.errors += 1 }
    }

    /// Counts a failed journal transaction as an error, unless another process's lock stopped it
    /// (counted as a lock timeout already).
    private func countFailure(_ failure: DiskCacheFileFailure) {
        if !failure.isLockHeldElsewhere { countError() }
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

    // MARK: - Journal transactions

    /// Runs `body` holding this process's journal lock and the folder's lock file, after
    /// catching up with what other processes appended.
    ///
    /// Waits up to ``lockTimeout`` for another process's lock, not at all while the last try
    /// found it held past the deadline; a lock still held throws, counted as a lock timeout.
    private func withJournal<Value>(
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
    private func appendWithinLimit(
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
    private func apply(
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
    private func removeEntry(_ digest: SHA256Digest, size: Int, journal: inout DiskCacheJournal)
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
    private func trimToLimit() {
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

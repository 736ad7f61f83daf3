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
    let bodies: DiskCacheBodyFiles
    let state: Lock<DiskCacheState>
    // Unlike `state`, held across I/O on purpose: it serializes this process's journal
    // transactions as `flock` serializes processes. Always taken before `state`, never inside it.
    let journal: Lock<DiskCacheJournal>

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
        return entry(for: source.identity, digest: Self.digest(of: source)) != nil
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
        return (try? read(source.identity, digest: Self.digest(of: source)))?.data
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
        _ = try? write(data, validity: validity, for: source.identity, digest: Self.digest(of: source))
    }

    /// Removes the bytes stored for `request`, if any.
    ///
    /// - Parameter request: A request; only `http` and `https` URLs are ever stored.
    public func removeData(for request: ImageRequest) {
        guard let source = Self.storedSource(of: request) else { return }
        remove(source.identity, digest: Self.digest(of: source))
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
    ///   once, on its request's first disk lookup).
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
}

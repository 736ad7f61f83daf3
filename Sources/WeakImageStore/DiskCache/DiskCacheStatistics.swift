/// What a disk cache did since it was opened (in this process).
struct DiskCacheStatistics: Sendable, Equatable {
    /// Reads that returned a verified body.
    var hits = 0
    /// Reads of an entry that is not in the index (or vanished while being read).
    var misses = 0
    /// Bodies stored.
    var writes = 0
    /// Validities replaced after a `304 Not Modified`.
    var revalidations = 0
    /// Entries removed to keep the size limit.
    var evictions = 0
    /// Faults: a damaged journal found while opening or catching up, a body that failed
    /// verification or could not be read, a write or journal update that failed.
    var errors = 0
    /// Journal transactions (opening included) given up because another process held the lock
    /// file past the deadline: the cache served misses and skipped writes meanwhile.
    var lockTimeouts = 0
}

/// Why the disk cache could not return or keep an entry. The entry is named by its identity.
///
/// A body that fails verification has been dropped from the index and deleted by the time the
/// error is thrown: the caller fetches the bytes again, and nothing altered is ever returned.
enum DiskCacheError: Error, Sendable, Equatable, CustomStringConvertible {
    /// The index lists the entry but its body file is gone: deleted behind the cache's back, or
    /// a crash came between the journal record and the rename.
    case bodyMissing(SourceIdentity)
    /// The body file's length is not the one recorded: it was truncated or appended to.
    case bodyLengthMismatch(SourceIdentity, recorded: Int, found: Int)
    /// The body file's CRC-32 is not the one recorded: its bytes were altered.
    case bodyChecksumMismatch(SourceIdentity, recorded: UInt32, computed: UInt32)
    /// The body file exists but could not be read; `reason` names the file and the system error.
    case readFailed(SourceIdentity, reason: String)
    /// The entry could not be stored (disk full, read-only folder, folder deleted and not
    /// re-creatable); `reason` names the file and the system error. Nothing partial was kept.
    case writeFailed(SourceIdentity, reason: String)

    var description: String {
        switch self {
        case .bodyMissing(let identity):
            "the disk cache lists \(identity) but its body file is missing"
        case .bodyLengthMismatch(let identity, let recorded, let found):
            "the disk cache's body of \(identity) is \(found) bytes, not the \(recorded) recorded"
        case .bodyChecksumMismatch(let identity, let recorded, let computed):
            "the disk cache's body of \(identity) has CRC-32 \(hex(computed)), not the \(hex(recorded)) recorded"
        case .readFailed(let identity, let reason):
            "cannot read the disk cache's body of \(identity): \(reason)"
        case .writeFailed(let identity, let reason):
            "cannot store \(identity) in the disk cache: \(reason)"
        }
    }
}

extension DiskCacheError {
    /// The error for a body that failed to read as `problem` says.
    init(_ problem: DiskCacheBodyFiles.ReadProblem, identity: SourceIdentity, recorded: DiskCacheEntryInfo) {
        switch problem {
        case .missing: self = .bodyMissing(identity)
        case .length(let found): self = .bodyLengthMismatch(identity, recorded: recorded.size, found: found)
        case .checksum(let computed):
            self = .bodyChecksumMismatch(identity, recorded: recorded.checksum, computed: computed)
        case .failed(let failure), .unsafeEntry(let failure):
            self = .readFailed(identity, reason: failure.description)
        }
    }
}

private func hex(_ value: UInt32) -> String {
    let digits = String(value, radix: 16)
    return "0x" + String(repeating: "0", count: 8 - digits.count) + digits
}

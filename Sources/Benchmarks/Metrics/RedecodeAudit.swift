/// Accounts for every decode of a small image (cost at most the LRU's admission limit): the
/// first one, and each later one with its excuse.
///
/// A small image decoded again is excused when a memory warning came, or the strategy reported
/// an eviction, since its previous decode. The check is generous (any eviction excuses any
/// re-decode) but exact about the rest: a re-decode with neither is unexplained.
struct RedecodeAudit {
    private struct LastDecode {
        let warnings: Int
        let evictions: Int
    }

    private var lastDecodes: [String: LastDecode] = [:]
    private(set) var decodes = 0
    private(set) var afterWarning = 0
    private(set) var afterEviction = 0
    private(set) var unexplained = 0

    /// Distinct small images decoded at least once.
    var distinctImages: Int { lastDecodes.count }

    /// Records a decode of the small image in `file`.
    ///
    /// - Parameters:
    ///   - warnings: Memory warnings so far in the replay.
    ///   - evictionsBefore: Evictions the strategy had reported before this lookup.
    ///   - evictionsAfter: Evictions it reports after it: those made room for this image.
    mutating func recordDecode(of file: String, warnings: Int, evictionsBefore: Int, evictionsAfter: Int) {
        decodes += 1
        if let last = lastDecodes[file] {
            if warnings > last.warnings {
                afterWarning += 1
            } else if evictionsBefore > last.evictions {
                afterEviction += 1
            } else {
                unexplained += 1
            }
        }
        lastDecodes[file] = LastDecode(warnings: warnings, evictions: evictionsAfter)
    }
}

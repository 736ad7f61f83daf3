/// What a name or path is asked for: both kinds of lookup share one cache of resolutions.
enum LookupRequest: Hashable, Sendable {
    case name(String)
    case path(String)
}

/// Remembered resolutions, including failures, so repeated lookups do not touch the file system.
///
/// Bounded: when it reaches ``capacity`` entries it starts over, which costs a re-resolution of
/// the names in use, never sharing (images are keyed by file, not by name).
struct ResolutionCache: Sendable {
    /// The most resolutions remembered: 4096.
    static let capacity = 4096

    private var resolutions: [LookupRequest: Result<ResourceKey, ImageStoreError>] = [:]

    var count: Int { resolutions.count }

    subscript(request: LookupRequest) -> Result<ResourceKey, ImageStoreError>? {
        resolutions[request]
    }

    mutating func remember(_ resolution: Result<ResourceKey, ImageStoreError>, for request: LookupRequest) {
        if resolutions.count >= Self.capacity, resolutions[request] == nil {
            resolutions.removeAll(keepingCapacity: true)
        }
        resolutions[request] = resolution
    }

    /// Forgets a resolution that turned out stale (the file vanished or changed).
    mutating func forget(_ request: LookupRequest) {
        resolutions[request] = nil
    }

    mutating func removeAll() {
        resolutions.removeAll()
    }
}
